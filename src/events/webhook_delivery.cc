#include "events/webhook_delivery.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <boost/json/serialize.hpp>

#include "common/clock.h"
#include "common/log.h"
#include "common/metrics.h"
#include "common/strings.h"
#include "events/change_events.h"
#include "events/sink_urls.h"
#include "io/http_client.h"

namespace firn::events {
namespace {

struct DeliveryMetrics {
  metrics::Counter& delivered;
  metrics::Counter& failed;
  metrics::Counter& skipped;
};

const DeliveryMetrics& Metrics() {
  static const DeliveryMetrics m = [] {
    auto& family = metrics::Default().Counters(
        "firn_webhook_events_total",
        "Change events per webhook sink outcome: delivered (2xx), failed (an attempt that "
        "will be retried), skipped (excluded by the sink's filters)",
        {"outcome"});
    return DeliveryMetrics{family.With({"delivered"}), family.With({"failed"}),
                           family.With({"skipped"})};
  }();
  return m;
}

bool Wanted(const store::EventSink& sink, const store::ChangeEvent& event) {
  if (sink.operations.empty()) return true;
  const auto ops = SplitString(sink.operations, ',');
  return std::find(ops.begin(), ops.end(), event.entry.operation) != ops.end();
}

int64_t Backoff(const WebhookOptions& o, int64_t failures) {
  int64_t delay = o.base_backoff.count();
  for (int64_t i = 1; i < failures && delay < o.max_backoff.count(); ++i) delay *= 2;
  return std::min<int64_t>(delay, o.max_backoff.count());
}

}  // namespace

WebhookDelivery::WebhookDelivery(store::CatalogStore& store,
                                 std::shared_ptr<const auth::KeyEncryptionKeys> keks,
                                 std::string instance_id, WebhookOptions options)
    : store_(store),
      keks_(std::move(keks)),
      instance_id_(std::move(instance_id)),
      options_(std::move(options)) {
  (void)Metrics();  // the family exists (at zero) from the start
}

WebhookDelivery::~WebhookDelivery() { Stop(); }

void WebhookDelivery::Start() {
  if (thread_.joinable()) return;
  thread_ = std::thread([this] { Loop(); });
}

void WebhookDelivery::Stop() {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
  }
  stop_flag_.store(true);
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void WebhookDelivery::Kick() {
  {
    std::lock_guard lock(mu_);
    kicked_ = true;
  }
  wake_.notify_all();
}

void WebhookDelivery::Loop() {
  std::unique_lock lock(mu_);
  while (!stopping_) {
    lock.unlock();
    const bool more = RunOnce();
    lock.lock();
    if (!more) wake_.wait_for(lock, options_.poll, [this] { return stopping_ || kicked_; });
    kicked_ = false;
  }
}

bool WebhookDelivery::RunOnce() {
  auto sinks = store_.ListEventSinks("");
  if (!sinks) {
    spdlog::warn(R"("msg":"event sinks not readable; delivery waits","error":"{}")",
                 log::Escape(sinks.error().message));
    return false;
  }
  bool more = false;
  for (const store::EventSink& sink : *sinks) {
    if (stop_flag_.load()) break;
    const int64_t now = NowMillis();
    if (sink.next_attempt_ms > now || sink.lease_until_ms >= now) continue;
    // Read first: a sink with nothing new is not claimed (no write for an idle sink).
    store::EventFilter peek;
    peek.realm = sink.realm;
    peek.catalog = sink.catalog;
    peek.after = sink.delivered_through;
    peek.limit = 1;
    auto pending = store_.ListEvents(peek);
    if (!pending || pending->empty()) continue;
    auto lease = store_.ClaimEventSink(sink.realm, sink.name, instance_id_, now,
                                       options_.lease.count());
    if (!lease || !*lease) continue;  // another instance took it, or it changed meanwhile
    more = Deliver(**lease) || more;
  }
  return more;
}

bool WebhookDelivery::Deliver(const store::EventSink& sink) {
  const int64_t started = NowMillis();
  const int64_t must_stop = started + options_.lease.count() / 2;
  store::SinkProgress progress;
  progress.delivered_through = sink.delivered_through;
  progress.failures = sink.failures;
  progress.last_error = sink.last_error;
  progress.last_success_ms = sink.last_success_ms;
  progress.attempt_ms = started;

  std::optional<Secret> secret;
  std::string failure;
  // Checked on every delivery: a sink made before the operator narrowed the list waits.
  if (auto allowed = CheckSinkUrl(sink.url, options_.allowed_urls); !allowed) {
    failure = allowed.error().message;
  } else if (!sink.secret.empty()) {
    auto opened = keks_ ? OpenSinkSecret(*keks_, sink.realm, sink.name, sink.secret)
                        : Result<Secret>(Fail(ErrorKind::kNotAuthorized,
                                              "no key-encryption key is configured"));
    if (opened) {
      secret = std::move(*opened);
    } else {
      failure = "the sink's secret does not open: " + opened.error().message;
    }
  }
  store::EventFilter filter;
  filter.realm = sink.realm;
  filter.catalog = sink.catalog;
  filter.after = sink.delivered_through;
  filter.limit = options_.batch;
  size_t read = 0;
  if (failure.empty()) {
    auto events = store_.ListEvents(filter);
    if (!events) {
      failure = "the feed is not readable: " + events.error().message;
    } else {
      read = events->size();
      for (const store::ChangeEvent& event : *events) {
        if (stop_flag_.load() || NowMillis() >= must_stop) {
          read = 0;  // not a full batch's worth done: come back at once
          break;
        }
        if (!Wanted(sink, event)) {
          progress.delivered_through = event.cursor;
          Metrics().skipped.Inc();
          continue;
        }
        const std::string body = boost::json::serialize(CloudEvent(event, options_.deployment_id));
        const std::string id = EncodeCursor(event.cursor);
        io::HttpRequest request;
        request.method = "POST";
        request.url = sink.url;
        request.body = body;
        request.timeout = options_.timeout;
        request.max_bytes = 64 * 1024;
        request.follow_redirects = false;
        request.headers = {{"Content-Type", "application/cloudevents+json"},
                           {"User-Agent", "firn-webhook"},
                           {"Expect", ""},  // no 100-continue round trip per event
                           {"webhook-id", id}};
        if (secret) {
          const int64_t ts = NowMillis() / 1000;
          request.headers.emplace_back("webhook-timestamp", std::to_string(ts));
          request.headers.emplace_back("webhook-signature",
                                       WebhookSignature(*secret, id, ts, body));
        }
        auto response = io::PerformHttp(request);
        if (!response) {
          // The detail names the method and URL; the URL may carry a token, so keep the cause.
          const std::string& d = response.error().detail;
          const size_t cut = d.rfind(": ");
          failure = "no answer: " + (cut == std::string::npos ? d : d.substr(cut + 2));
          break;
        }
        if (response->status < 200 || response->status >= 300) {
          failure = "HTTP " + std::to_string(response->status);
          break;
        }
        progress.delivered_through = event.cursor;
        ++progress.newly_delivered;
        Metrics().delivered.Inc();
      }
    }
  }
  const int64_t now = NowMillis();
  bool more = false;
  if (failure.empty()) {
    progress.failures = 0;
    progress.last_error.clear();
    if (progress.newly_delivered > 0) progress.last_success_ms = now;
    // Due again at once: a caught-up sink costs only the read that finds nothing new.
    more = read == static_cast<size_t>(options_.batch) || read == 0;
    progress.next_attempt_ms = now;
  } else {
    Metrics().failed.Inc();
    if (progress.newly_delivered > 0) progress.last_success_ms = now;
    progress.failures = sink.failures + 1;
    progress.last_error = failure;
    progress.next_attempt_ms = now + Backoff(options_, progress.failures);
    spdlog::warn(R"("msg":"webhook delivery failed; will retry","realm":"{}","sink":"{}",)"
                 R"("error":"{}","failures":{},"retry_in_ms":{})",
                 log::Escape(sink.realm), log::Escape(sink.name), log::Escape(failure),
                 progress.failures, progress.next_attempt_ms - now);
  }
  if (auto st = store_.FinishEventSink(sink.realm, sink.name, instance_id_, progress); !st) {
    spdlog::warn(R"("msg":"webhook delivery not recorded; the sink's events may be sent again",)"
                 R"("realm":"{}","sink":"{}","error":"{}")",
                 log::Escape(sink.realm), log::Escape(sink.name),
                 log::Escape(st.error().message));
    return false;
  }
  return more;
}

}  // namespace firn::events
