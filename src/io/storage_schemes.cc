#include "io/storage_schemes.h"

#include "common/strings.h"

namespace firn::io {
namespace {

constexpr StorageScheme kSchemes[] = {
    {"file", "file", StoreKind::kLocal, /*needs_authority=*/false, "localhost"},
    // Hadoop's S3A and S3N connectors' schemes name the same objects as s3 (Iceberg's S3FileIO
    // accepts all three).
    {"s3", "s3", StoreKind::kS3, /*needs_authority=*/true, ""},
    {"s3a", "s3", StoreKind::kS3, /*needs_authority=*/true, ""},
    {"s3n", "s3", StoreKind::kS3, /*needs_authority=*/true, ""},
};

constexpr bool NamesAreLowerCaseAndCanonicalsKnown() {
  for (const auto& s : kSchemes) {
    for (char c : s.name) {
      if (c >= 'A' && c <= 'Z') return false;
    }
    bool known = false;
    for (const auto& t : kSchemes) known = known || t.name == s.canonical;
    if (!known) return false;
  }
  return true;
}
static_assert(NamesAreLowerCaseAndCanonicalsKnown(),
              "scheme names are lower case and every canonical scheme is itself registered");

}  // namespace

std::string_view StoreKindName(StoreKind kind) {
  switch (kind) {
    case StoreKind::kLocal: return "local";
    case StoreKind::kS3: return "S3";
  }
  return "unknown";
}

std::span<const StorageScheme> StorageSchemes() { return kSchemes; }

const StorageScheme& BarePathScheme() { return kSchemes[0]; }

std::string_view UriScheme(std::string_view uri) {
  // ASCII, whatever the locale.
  auto letter = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); };
  auto digit = [](char c) { return c >= '0' && c <= '9'; };
  if (uri.empty() || !letter(uri[0])) return {};
  for (size_t i = 1; i < uri.size(); ++i) {
    const char c = uri[i];
    if (c == ':') return uri.substr(0, i);
    if (!letter(c) && !digit(c) && c != '+' && c != '-' && c != '.') return {};
  }
  return {};
}

const StorageScheme* FindStorageScheme(std::string_view scheme) {
  for (const auto& s : kSchemes) {
    if (EqualsIgnoreCase(s.name, scheme)) return &s;
  }
  return nullptr;
}

const StorageScheme* StorageSchemeOf(std::string_view uri) {
  if (!uri.empty() && uri.front() == '/') return &BarePathScheme();
  std::string_view scheme = UriScheme(uri);
  return scheme.empty() ? nullptr : FindStorageScheme(scheme);
}

}  // namespace firn::io
