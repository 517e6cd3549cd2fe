#include "http/router.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <array>
#include <cstdint>

namespace firn::http {

namespace {

constexpr size_t kMethodCount = static_cast<size_t>(Method::kOther) + 1;

struct Segment {
  std::string text;  // literal bytes, or the parameter name
  bool is_param = false;
};

struct Pattern {
  std::string source;
  std::vector<Segment> segments;
  size_t param_count = 0;
  std::array<Handler, kMethodCount> handlers;
  std::array<uint32_t, kMethodCount> tags{};
  uint32_t method_mask = 0;

  bool Matches(const std::string_view* segs) const {
    for (size_t i = 0; i < segments.size(); ++i) {
      const Segment& s = segments[i];
      if (s.is_param ? segs[i].empty() : segs[i] != s.text) return false;
    }
    return true;
  }
};

// Literal-before-param, segment by segment: the more specific pattern sorts first.
bool MoreSpecific(const Pattern* a, const Pattern* b) {
  for (size_t i = 0; i < a->segments.size() && i < b->segments.size(); ++i) {
    if (a->segments[i].is_param != b->segments[i].is_param) return !a->segments[i].is_param;
  }
  return false;
}

// Splits "/a/b" into {"a","b"}; false if the path does not start with '/' or has too many
// segments. No allocation: views into `path`.
bool SplitPath(std::string_view path, std::array<std::string_view, Router::kMaxSegments>& out,
               size_t& count) {
  if (path.empty() || path.front() != '/') return false;
  count = 0;
  size_t start = 1;
  while (true) {
    if (count == out.size()) return false;
    size_t slash = path.find('/', start);
    if (slash == std::string_view::npos) {
      out[count++] = path.substr(start);
      return true;
    }
    out[count++] = path.substr(start, slash - start);
    start = slash + 1;
  }
}

std::string AllowValue(uint32_t mask) {
  std::string out;
  for (size_t m = 0; m < kMethodCount; ++m) {
    if (static_cast<Method>(m) == Method::kOther || !(mask & (1u << m))) continue;
    if (!out.empty()) out += ", ";
    out += MethodName(static_cast<Method>(m));
  }
  return out;
}

}  // namespace

struct Router::Impl {
  Fallbacks fallbacks;
  std::vector<std::unique_ptr<Pattern>> patterns;

  // Index: by segment count, then by first literal segment (patterns starting with a
  // parameter are kept apart). Each list is sorted most-specific first.
  struct Bucket {
    std::vector<std::pair<std::string, std::vector<const Pattern*>>> by_first_literal;
    std::vector<const Pattern*> param_first;
  };
  std::vector<Bucket> buckets;

  void Reindex() {
    buckets.assign(kMaxSegments + 1, Bucket{});
    for (const auto& p : patterns) {
      Bucket& b = buckets[p->segments.size()];
      if (p->segments[0].is_param) {
        b.param_first.push_back(p.get());
        continue;
      }
      auto it = std::find_if(b.by_first_literal.begin(), b.by_first_literal.end(),
                             [&](const auto& e) { return e.first == p->segments[0].text; });
      if (it == b.by_first_literal.end()) {
        b.by_first_literal.emplace_back(p->segments[0].text, std::vector<const Pattern*>{});
        it = std::prev(b.by_first_literal.end());
      }
      it->second.push_back(p.get());
    }
    for (Bucket& b : buckets) {
      for (auto& [first, list] : b.by_first_literal) {
        std::stable_sort(list.begin(), list.end(), MoreSpecific);
      }
      std::stable_sort(b.param_first.begin(), b.param_first.end(), MoreSpecific);
    }
  }

  // The pattern serving `request` (null when none), with the path split into `segs`/`count`;
  // `allowed` collects the methods of the patterns that match the path.
  const Pattern* Match(const Request& request, std::array<std::string_view, kMaxSegments>& segs,
                       size_t& count, uint32_t& allowed) const {
    allowed = 0;
    if (!SplitPath(request.path, segs, count)) return nullptr;
    const Bucket& bucket = buckets[count];
    const size_t m = static_cast<size_t>(request.method);
    auto try_list = [&](const std::vector<const Pattern*>& list) -> const Pattern* {
      for (const Pattern* p : list) {
        if (!p->Matches(segs.data())) continue;
        if (m < kMethodCount && request.method != Method::kOther && p->handlers[m]) return p;
        allowed |= p->method_mask;
      }
      return nullptr;
    };
    for (const auto& [first, list] : bucket.by_first_literal) {
      if (first == segs[0]) {
        if (const Pattern* hit = try_list(list)) return hit;
        break;
      }
    }
    return try_list(bucket.param_first);
  }
};

Router::Router(Fallbacks fallbacks) : impl_(std::make_unique<Impl>()) {
  impl_->fallbacks = std::move(fallbacks);
  impl_->Reindex();
}

Router::~Router() = default;

std::vector<Router::RouteEntry> Router::Routes() const {
  std::vector<RouteEntry> out;
  for (const auto& p : impl_->patterns) {
    for (size_t m = 0; m < kMethodCount; ++m) {
      if (p->method_mask & (1u << m)) out.push_back({static_cast<Method>(m), p->source});
    }
  }
  return out;
}


void Router::Add(Method method, std::string pattern, Handler handler, uint32_t tag) {
  std::array<std::string_view, kMaxSegments> segs;
  size_t count = 0;
  if (method == Method::kOther || !SplitPath(pattern, segs, count)) {
    spdlog::error(R"("msg":"router: invalid route ignored","pattern":"{}")", pattern);
    return;
  }
  auto existing = std::find_if(impl_->patterns.begin(), impl_->patterns.end(),
                               [&](const auto& p) { return p->source == pattern; });
  Pattern* p = nullptr;
  if (existing != impl_->patterns.end()) {
    p = existing->get();
  } else {
    auto fresh = std::make_unique<Pattern>();
    fresh->source = pattern;
    for (size_t i = 0; i < count; ++i) {
      std::string_view s = segs[i];
      bool is_param = s.size() >= 2 && s.front() == '{' && s.back() == '}';
      fresh->segments.push_back(
          Segment{std::string(is_param ? s.substr(1, s.size() - 2) : s), is_param});
      if (is_param) ++fresh->param_count;
    }
    p = fresh.get();
    impl_->patterns.push_back(std::move(fresh));
  }
  size_t m = static_cast<size_t>(method);
  p->handlers[m] = std::move(handler);
  p->tags[m] = tag;
  p->method_mask |= 1u << m;
  impl_->Reindex();
}

Router::Found Router::Find(const Request& request) const {
  std::array<std::string_view, kMaxSegments> segs;
  size_t count = 0;
  uint32_t allowed = 0;
  const Pattern* hit = impl_->Match(request, segs, count, allowed);
  if (hit == nullptr) return {};
  return {.found = true,
          .tag = hit->tags[static_cast<size_t>(request.method)],
          .pattern = hit->source};
}

Response Router::Dispatch(const Request& request) const {
  std::array<std::string_view, kMaxSegments> segs;
  size_t count = 0;
  uint32_t allowed = 0;
  if (const Pattern* hit = impl_->Match(request, segs, count, allowed)) {
    PathParams params;
    params.reserve(hit->param_count);
    for (size_t i = 0; i < count; ++i) {
      if (hit->segments[i].is_param) params.emplace_back(hit->segments[i].text, segs[i]);
    }
    return hit->handlers[static_cast<size_t>(request.method)](request, params);
  }
  if (allowed != 0) {
    Response r = impl_->fallbacks.method_not_allowed ? impl_->fallbacks.method_not_allowed(request)
                                                     : Response::Empty(405);
    r.SetHeader("Allow", AllowValue(allowed));
    return r;
  }
  return impl_->fallbacks.not_found ? impl_->fallbacks.not_found(request) : Response::Empty(404);
}

}  // namespace firn::http
