#include "recovery/migrate.h"

#include <boost/json.hpp>

#include "common/encoding.h"
#include "common/macros.h"
#include "io/http_client.h"
#include "store/store_keys.h"

namespace firn::recovery {
namespace {

namespace json = boost::json;

// The source catalog, through its REST API.
class Source {
 public:
  explicit Source(const MigrateOptions& options) : options_(options) {
    base_ = options.uri;
    while (base_.ends_with('/')) base_.pop_back();
  }

  Status Connect() {
    if (!options_.credential.empty()) {
      const size_t colon = options_.credential.find(':');
      if (colon == std::string::npos) {
        return Fail(ErrorKind::kIllegalArgument, "--credential must be client-id:secret");
      }
      const std::string form = "grant_type=client_credentials&client_id=" +
                               PercentEncode(options_.credential.substr(0, colon)) +
                               "&client_secret=" +
                               PercentEncode(options_.credential.substr(colon + 1)) +
                               "&scope=" + PercentEncode(options_.scope);
      io::HttpRequest r{"POST", base_ + "/v1/oauth/tokens",
                        {{"Content-Type", "application/x-www-form-urlencoded"}}, form};
      FIRN_ASSIGN_OR_RETURN(json::object doc, Call(std::move(r)));
      const auto* token = doc.if_contains("access_token");
      if (!token || !token->is_string()) {
        return Fail(ErrorKind::kNotAuthorized, "The source catalog gave no access token");
      }
      token_ = std::string(token->as_string());
    } else {
      token_ = options_.token;
    }
    std::string url = base_ + "/v1/config";
    if (!options_.warehouse.empty()) url += "?warehouse=" + PercentEncode(options_.warehouse);
    FIRN_ASSIGN_OR_RETURN(json::object config, Get(url));
    for (std::string_view part : {"defaults", "overrides"}) {
      const auto* o = config.if_contains(part);
      if (!o || !o->is_object()) continue;
      if (const auto* p = o->as_object().if_contains("prefix"); p && p->is_string()) {
        prefix_ = "/" + std::string(p->as_string());
      }
      if (const auto* s = o->as_object().if_contains("namespace-separator");
          s && s->is_string()) {
        separator_ = std::string(s->as_string());
      }
    }
    return Ok();
  }

  Result<std::vector<store::Namespace>> Namespaces(const store::Namespace& parent) {
    std::vector<store::Namespace> out;
    std::string query = parent.empty() ? "" : "parent=" + Encoded(parent);
    FIRN_RETURN_IF_ERROR(Pages("/namespaces", query, "namespaces", [&](const json::value& v) {
      if (!v.is_array()) return;
      store::Namespace ns;
      for (const json::value& level : v.as_array()) {
        if (level.is_string()) ns.emplace_back(level.as_string());
      }
      out.push_back(std::move(ns));
    }));
    return out;
  }

  Result<store::Properties> NamespaceProperties(const store::Namespace& ns) {
    FIRN_ASSIGN_OR_RETURN(json::object doc, Get(Url("/namespaces/" + Encoded(ns))));
    store::Properties props;
    if (const auto* p = doc.if_contains("properties"); p && p->is_object()) {
      for (const auto& [k, v] : p->as_object()) {
        if (v.is_string()) props.emplace(std::string(k), std::string(v.as_string()));
      }
    }
    return props;
  }

  // "tables" or "views" of a namespace.
  Result<std::vector<std::string>> Objects(const store::Namespace& ns, std::string_view kind) {
    std::vector<std::string> out;
    FIRN_RETURN_IF_ERROR(Pages("/namespaces/" + Encoded(ns) + "/" + std::string(kind), "",
                               "identifiers", [&](const json::value& v) {
                                 if (!v.is_object()) return;
                                 if (const auto* n = v.as_object().if_contains("name");
                                     n && n->is_string()) {
                                   out.emplace_back(n->as_string());
                                 }
                               }));
    return out;
  }

  Result<std::string> MetadataLocation(const store::Identifier& id, std::string_view kind) {
    FIRN_ASSIGN_OR_RETURN(json::object doc, Get(Url("/namespaces/" + Encoded(id.ns) + "/" +
                                                    std::string(kind) + "/" +
                                                    PercentEncode(id.name))));
    const auto* m = doc.if_contains("metadata-location");
    if (!m || !m->is_string()) {
      return Fail(ErrorKind::kBadRequest, "The source answered no metadata-location for " +
                                              store::IdentifierDisplay(id));
    }
    return std::string(m->as_string());
  }

  Status Release(const store::Identifier& id, std::string_view kind) {
    io::HttpRequest r{"DELETE",
                      Url("/namespaces/" + Encoded(id.ns) + "/" + std::string(kind) + "/" +
                          PercentEncode(id.name) +
                          (kind == "tables" ? "?purgeRequested=false" : "")),
                      Headers(), ""};
    FIRN_ASSIGN_OR_RETURN(io::HttpResponse response, io::PerformHttp(r));
    if (response.status < 200 || response.status >= 300) {
      return Fail(ErrorKind::kCommitFailed,
                  "the source answered HTTP " + std::to_string(response.status));
    }
    return Ok();
  }

 private:
  std::string Url(const std::string& tail) const { return base_ + "/v1" + prefix_ + tail; }

  std::string Encoded(const store::Namespace& ns) const {
    std::string out;
    for (size_t i = 0; i < ns.size(); ++i) {
      if (i > 0) out += separator_;
      out += PercentEncode(ns[i]);
    }
    return out;
  }

  std::vector<std::pair<std::string, std::string>> Headers() const {
    std::vector<std::pair<std::string, std::string>> h = {{"Accept", "application/json"}};
    if (!token_.empty()) h.emplace_back("Authorization", "Bearer " + token_);
    return h;
  }

  Result<json::object> Get(const std::string& url) {
    return Call(io::HttpRequest{"GET", url, {}, ""});
  }

  Result<json::object> Call(io::HttpRequest r) {
    for (auto& h : Headers()) {
      if (h.first == "Authorization" && r.url.ends_with("/v1/oauth/tokens")) continue;
      r.headers.push_back(h);
    }
    FIRN_ASSIGN_OR_RETURN(io::HttpResponse response, io::PerformHttp(r));
    if (response.status < 200 || response.status >= 300) {
      std::string message;
      boost::system::error_code ec;
      json::value doc = json::parse(response.body, ec);
      if (!ec && doc.is_object()) {
        if (const auto* e = doc.as_object().if_contains("error"); e && e->is_object()) {
          if (const auto* m = e->as_object().if_contains("message"); m && m->is_string()) {
            message = std::string(m->as_string());
          }
        }
      }
      return Fail(response.status == 401 || response.status == 403
                      ? ErrorKind::kNotAuthorized
                      : ErrorKind::kServiceUnavailable,
                  "The source catalog answered HTTP " + std::to_string(response.status) +
                      (message.empty() ? "" : ": " + message),
                  r.method + " " + r.url);
    }
    boost::system::error_code ec;
    json::value doc = json::parse(response.body, ec);
    if (ec || !doc.is_object()) {
      return Fail(ErrorKind::kBadRequest, "The source catalog answered something not JSON",
                  r.method + " " + r.url);
    }
    return std::move(doc.as_object());
  }

  Status Pages(const std::string& tail, const std::string& query, std::string_view key,
               const std::function<void(const json::value&)>& each) {
    std::string token;
    for (int page = 0; page < 100000; ++page) {
      std::string url = Url(tail);
      std::string q = query;
      if (!token.empty()) q += (q.empty() ? "" : "&") + ("pageToken=" + PercentEncode(token));
      if (!q.empty()) url += "?" + q;
      FIRN_ASSIGN_OR_RETURN(json::object doc, Get(url));
      if (const auto* items = doc.if_contains(key); items && items->is_array()) {
        for (const json::value& v : items->as_array()) each(v);
      }
      const auto* next = doc.if_contains("next-page-token");
      if (!next || !next->is_string() || next->as_string().empty()) return Ok();
      if (std::string(next->as_string()) == token) return Ok();
      token = std::string(next->as_string());
    }
    return Ok();
  }

  const MigrateOptions& options_;
  std::string base_;
  std::string prefix_;
  std::string separator_ = "%1F";
  std::string token_;
};

}  // namespace

Result<MigrateReport> Migrate(catalog::CatalogService& service, const catalog::RequestContext& ctx,
                              const MigrateOptions& options) {
  Source source(options);
  FIRN_RETURN_IF_ERROR(source.Connect());
  MigrateReport report;
  auto done = [&](MigratedObject o) {
    if (o.action == "registered") ++report.registered;
    if (o.action == "failed" || o.action == "refused" || o.released.starts_with("failed")) {
      ++report.failed;
    }
    if (options.on_object) options.on_object(o);
    report.objects.push_back(std::move(o));
  };
  std::vector<store::Namespace> pending = {{}};
  while (!pending.empty()) {
    const store::Namespace parent = std::move(pending.back());
    pending.pop_back();
    FIRN_ASSIGN_OR_RETURN(std::vector<store::Namespace> children, source.Namespaces(parent));
    for (const store::Namespace& ns : children) {
      pending.push_back(ns);
      MigratedObject made{"namespace", {ns, ""}, "", "", "", ""};
      if (options.dry_run) {
        made.action = "would-create";
      } else {
        auto props = source.NamespaceProperties(ns);
        store::Properties copied = props ? *props : store::Properties{};
        copied.erase("location");  // the source's folder is not Firn's to claim
        auto created = service.CreateNamespace(ctx, ns, copied);
        made.action = created ? "created"
                              : created.error().kind == ErrorKind::kAlreadyExists ? "exists"
                                                                                   : "failed";
        if (!created && made.action == "failed") made.detail = created.error().message;
      }
      done(std::move(made));
      for (std::string_view kind : {"tables", "views"}) {
        auto names = source.Objects(ns, kind);
        if (!names) {
          // Some catalogs serve no views; that is no failure of the tables.
          if (kind == "views") continue;
          return Fail(names.error());
        }
        for (const std::string& name : *names) {
          MigratedObject o{kind == "tables" ? "table" : "view", {ns, name}, "", "", "", ""};
          auto location = source.MetadataLocation(o.id, kind);
          if (!location) {
            o.action = "failed";
            o.detail = location.error().message;
            done(std::move(o));
            continue;
          }
          o.metadata_location = *location;
          if (options.dry_run) {
            o.action = "would-register";
            done(std::move(o));
            continue;
          }
          Status registered = Ok();
          if (kind == "tables") {
            auto r = service.RegisterTable(ctx, o.id, o.metadata_location, false);
            if (!r) registered = Fail(r.error());
          } else {
            auto r = service.RegisterView(ctx, o.id, o.metadata_location);
            if (!r) registered = Fail(r.error());
          }
          if (registered) {
            o.action = "registered";
          } else if (registered.error().kind == ErrorKind::kAlreadyExists) {
            o.action = "already-registered";
            o.detail = registered.error().message;
          } else {
            o.action = registered.error().kind == ErrorKind::kServiceUnavailable ? "failed"
                                                                                  : "refused";
            o.detail = registered.error().message;
          }
          // Register, then release: only what Firn holds now leaves the source.
          if (options.release && (o.action == "registered")) {
            Status released = source.Release(o.id, kind);
            o.released = released ? "released" : "failed: " + released.error().message;
          }
          done(std::move(o));
        }
      }
    }
  }
  return report;
}

std::string MigratedJson(const MigratedObject& o) {
  json::object out;
  out["kind"] = o.kind;
  json::array ns;
  for (const std::string& level : o.id.ns) ns.emplace_back(level);
  out["namespace"] = std::move(ns);
  if (!o.id.name.empty()) out["name"] = o.id.name;
  if (!o.metadata_location.empty()) out["metadata-location"] = o.metadata_location;
  out["action"] = o.action;
  if (!o.released.empty()) out["released"] = o.released;
  if (!o.detail.empty()) out["detail"] = o.detail;
  return json::serialize(out);
}

}  // namespace firn::recovery
