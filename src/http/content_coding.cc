#include "http/content_coding.h"

#include <algorithm>
#include <optional>
#include <utility>

#include "common/gzip.h"
#include "common/strings.h"

namespace firn::http {

namespace {

constexpr std::string_view kOws = " \t";
constexpr std::string_view kGzipTagSuffix = "-gzip";

// Weights in thousandths (qvalue has three decimals); -1: not listed.
struct CodingWeights {
  int gzip = -1;
  int identity = -1;
  int any = -1;  // "*"
};

// RFC 9110 qvalue: "0" ["." 0*3DIGIT] / "1" ["." 0*3("0")]. nullopt when malformed.
std::optional<int> ParseQValue(std::string_view v) {
  if (v.empty() || (v[0] != '0' && v[0] != '1')) return std::nullopt;
  const bool one = v[0] == '1';
  if (v.size() == 1) return one ? 1000 : 0;
  if (v[1] != '.' || v.size() > 5) return std::nullopt;
  int thousandths = 0;
  int scale = 100;
  for (char c : v.substr(2)) {
    if (c < '0' || c > '9' || (one && c != '0')) return std::nullopt;
    thousandths += (c - '0') * scale;
    scale /= 10;
  }
  return one ? 1000 : thousandths;
}

// Folds one element ("gzip", "gzip;q=0.5", "*;q=0") into `w`; malformed ones are ignored.
// A coding listed twice keeps its lowest weight: a q=0 anywhere refuses it.
void AddElement(std::string_view element, CodingWeights& w) {
  const size_t semi = element.find(';');
  const std::string_view coding = Trim(element.substr(0, semi), kOws);
  int q = 1000;
  bool have_q = false;
  std::string_view params = semi == std::string_view::npos ? "" : element.substr(semi + 1);
  while (!params.empty()) {
    const size_t next = params.find(';');
    const std::string_view param = Trim(params.substr(0, next), kOws);
    params = next == std::string_view::npos ? "" : params.substr(next + 1);
    const size_t eq = param.find('=');
    if (eq == std::string_view::npos) continue;  // not a weight: RFC 9110 defines none else
    if (!EqualsIgnoreCase(Trim(param.substr(0, eq), kOws), "q")) continue;
    const std::optional<int> value = ParseQValue(Trim(param.substr(eq + 1), kOws));
    if (!value || have_q) return;  // a bad or repeated weight: the element means nothing
    q = *value;
    have_q = true;
  }
  int* slot = nullptr;
  if (EqualsIgnoreCase(coding, "gzip") || EqualsIgnoreCase(coding, "x-gzip")) {
    slot = &w.gzip;
  } else if (EqualsIgnoreCase(coding, "identity")) {
    slot = &w.identity;
  } else if (coding == "*") {
    slot = &w.any;
  }
  if (slot != nullptr) *slot = *slot < 0 ? q : std::min(*slot, q);
}

void AddField(std::string_view value, CodingWeights& w) {
  while (!value.empty()) {
    const size_t comma = value.find(',');
    AddElement(value.substr(0, comma), w);
    if (comma == std::string_view::npos) break;
    value.remove_prefix(comma + 1);
  }
}

bool PrefersGzip(const CodingWeights& w) {
  const int gzip = w.gzip >= 0 ? w.gzip : w.any;
  // Identity is acceptable without being listed; only a stated weight can outrank gzip.
  const int identity = w.identity >= 0 ? w.identity : std::max(w.any, 0);
  return gzip > 0 && gzip >= identity;
}

// text/*, JSON, JavaScript, XML, YAML and their +json / +xml dialects (SVG among them).
bool IsTextual(std::string_view content_type) {
  const std::string_view media = Trim(content_type.substr(0, content_type.find(';')), kOws);
  const size_t slash = media.find('/');
  if (slash == std::string_view::npos) return false;
  const std::string_view type = media.substr(0, slash);
  const std::string_view subtype = media.substr(slash + 1);
  if (EqualsIgnoreCase(type, "text")) return true;
  for (std::string_view textual : {"json", "javascript", "ecmascript", "xml", "yaml", "x-yaml"}) {
    if (EqualsIgnoreCase(subtype, textual)) return true;
  }
  auto ends_with = [&](std::string_view suffix) {
    return subtype.size() > suffix.size() &&
           EqualsIgnoreCase(subtype.substr(subtype.size() - suffix.size()), suffix);
  };
  return ends_with("+json") || ends_with("+xml");
}

// Everything ShouldGzip asks except the client's Accept-Encoding.
bool Compressible(const Request& req, const Response& r) {
  const int s = r.status;
  return req.method != Method::kHead && s >= 200 && s != 204 && s != 304 &&
         r.body.size() >= kGzipMinBytes && r.GetHeader("Content-Encoding").empty() &&
         IsTextual(r.GetHeader("Content-Type"));
}

bool IsStrongEtag(std::string_view etag) {
  return etag.size() >= 2 && etag.front() == '"' && etag.back() == '"';
}

void AddVary(Response& r) {
  const std::string_view vary = r.GetHeader("Vary");
  if (vary.empty()) return r.SetHeader("Vary", "Accept-Encoding");
  std::string_view rest = vary;
  while (!rest.empty()) {
    const size_t comma = rest.find(',');
    const std::string_view field = Trim(rest.substr(0, comma), kOws);
    if (field == "*" || EqualsIgnoreCase(field, "Accept-Encoding")) return;
    if (comma == std::string_view::npos) break;
    rest.remove_prefix(comma + 1);
  }
  r.SetHeader("Vary", std::string(vary) + ", Accept-Encoding");
}

// Whether `list` names the entity tag `tag` (weak comparison).
bool ListsTag(std::string_view list, std::string_view tag) {
  std::string_view rest = list;
  for (;;) {
    rest = Trim(rest, kOws);
    while (!rest.empty() && rest.front() == ',') rest = Trim(rest.substr(1), kOws);
    if (rest.empty()) return false;
    if (rest.starts_with("W/")) rest.remove_prefix(2);
    if (rest.empty() || rest.front() != '"') return false;
    const size_t close = rest.find('"', 1);
    if (close == std::string_view::npos) return false;
    if (rest.substr(0, close + 1) == tag) return true;
    rest.remove_prefix(close + 1);
    rest = Trim(rest, kOws);
    if (!rest.empty() && rest.front() != ',') return false;
  }
}

}  // namespace

bool AcceptsGzip(std::string_view accept_encoding) {
  CodingWeights w;
  AddField(accept_encoding, w);
  return PrefersGzip(w);
}

bool AcceptsGzip(const Request& req) {
  CodingWeights w;
  bool any = false;
  for (const Header& h : req.headers) {
    if (!EqualsIgnoreCase(h.name, "Accept-Encoding")) continue;
    AddField(h.value, w);
    any = true;
  }
  return any && PrefersGzip(w);
}

bool ShouldGzip(const Request& req, const Response& r) {
  return Compressible(req, r) && AcceptsGzip(req);
}

std::string GzipEtag(std::string_view etag) {
  if (!IsStrongEtag(etag)) return std::string(etag);
  std::string out(etag.substr(0, etag.size() - 1));
  out += kGzipTagSuffix;
  out += '"';
  return out;
}

void UseGzipBody(Response& r, std::string gzipped) {
  r.body = std::move(gzipped);
  r.SetHeader("Content-Encoding", "gzip");
  AddVary(r);
  if (const std::string_view etag = r.GetHeader("ETag"); IsStrongEtag(etag)) {
    r.SetHeader("ETag", GzipEtag(etag));
  }
}

void EncodeContent(const Request& req, Response& r) {
  if (r.status == 304) {
    const std::string_view etag = r.GetHeader("ETag");
    if (IsStrongEtag(etag)) {
      std::string gzip_tag = GzipEtag(etag);
      if (ListsTag(req.GetHeader("If-None-Match"), gzip_tag)) {
        r.SetHeader("ETag", std::move(gzip_tag));
        AddVary(r);
      }
    }
    return;
  }
  if (!Compressible(req, r)) return;
  if (AcceptsGzip(req)) return UseGzipBody(r, Gzip(r.body, kGzipLevelFast));
  AddVary(r);
}

bool IfNoneMatch(std::string_view if_none_match, std::string_view etag) {
  if (Trim(if_none_match, kOws) == "*") return true;
  return ListsTag(if_none_match, etag) || ListsTag(if_none_match, GzipEtag(etag));
}

}  // namespace firn::http
