// WebhookDelivery: sends the change feed to every event sink (docs/events.md), at least once and
// in feed order per sink, from whichever instance holds the sink's lease.
//
// Each round (every `poll`, or at once after Kick) the deliverer lists the sinks, and for each
// one that is due and unleased it reads the feed after the sink's cursor; only a sink with
// something to send is claimed (store/event_store.h), so idle sinks cost reads, not writes.
// Holding the lease, it POSTs the events one at a time (CloudEvents structured JSON, signed
// when the sink has a secret), skipping events its filters exclude, and records how far it got:
//   - all sent: failures reset and the sink is due again at once; after a full batch (more may
//     wait) the next round starts without waiting for `poll`;
//   - a failure (a non-2xx answer, a timeout, no connection): the cursor stays at the last
//     event that was acknowledged, and the sink is due again after base_backoff doubled per
//     consecutive failure (capped at max_backoff), for ever: events are never dropped.
// The cursor moves only after a 2xx, so a crash between a POST and its record sends that event
// again (receivers deduplicate by the CloudEvent id). A deliverer stops a batch before half its
// lease is spent, so no other instance can take the sink while it is still sending.
//
// Thread-safety: Start/Stop from one thread; Kick and RunOnce from any.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "auth/key_encryption.h"
#include "store/store.h"

namespace firn::events {

struct WebhookOptions {
  std::chrono::milliseconds poll{250};  // how soon a new event is noticed (reads only)
  std::chrono::milliseconds lease{30000};  // a killed deliverer's sinks wait this long
  std::chrono::milliseconds timeout{10000};  // one POST, connection included
  std::chrono::milliseconds base_backoff{1000};
  std::chrono::milliseconds max_backoff{300000};
  int batch = 100;  // events read per attempt
  std::string deployment_id;
  // Where sinks may point (sink_urls.h), checked before each delivery; empty = any URL.
  std::vector<std::string> allowed_urls;
};

class WebhookDelivery {
 public:
  // `keks` opens sinks' secrets (null: a sink with a secret fails until a KEK is configured).
  WebhookDelivery(store::CatalogStore& store, std::shared_ptr<const auth::KeyEncryptionKeys> keks,
                  std::string instance_id, WebhookOptions options);
  ~WebhookDelivery();
  WebhookDelivery(const WebhookDelivery&) = delete;
  WebhookDelivery& operator=(const WebhookDelivery&) = delete;

  void Start();
  void Stop();
  void Kick();
  // One round now, on the caller's thread. True when a sink is known to have more to send
  // at once (a full batch went out), so the caller should not wait before the next round.
  bool RunOnce();

 private:
  // Delivers to one claimed sink and records the outcome; true when a full batch went out.
  bool Deliver(const store::EventSink& sink);
  void Loop();

  store::CatalogStore& store_;
  std::shared_ptr<const auth::KeyEncryptionKeys> keks_;
  const std::string instance_id_;
  const WebhookOptions options_;
  std::mutex mu_;
  std::condition_variable wake_;
  bool stopping_ = false;  // mu_
  bool kicked_ = false;    // mu_
  std::atomic<bool> stop_flag_{false};
  std::thread thread_;
};

}  // namespace firn::events
