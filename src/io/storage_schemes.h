// The storage scheme registry: every URI scheme Firn's object stores serve, what each means,
// and which store serves it. Declared once here; io::MakeObjectStore routes by it and
// catalog/location_policy normalises locations by it, so a scheme added here is served and
// compared alike.
//
//   file           the local file store; no authority, or "localhost" (this host)
//   (bare path)    "/wh/t" is a local file, read as file:/wh/t
//   s3, s3a, s3n   the S3 store (when configured); compared as s3; a bucket is required
//
// Contract: immutable constexpr data and pure functions; thread-safe. Scheme names compare
// case-insensitively (RFC 3986).
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

namespace firn::io {

// Which ObjectStore serves a scheme.
enum class StoreKind : uint8_t { kLocal, kS3 };
inline constexpr int kStoreKindCount = 2;

// "local", "S3": for messages ("S3 storage is not configured").
std::string_view StoreKindName(StoreKind kind);

struct StorageScheme {
  std::string_view name;       // lower case, as written in URIs ("s3a")
  std::string_view canonical;  // the scheme locations are compared under ("s3")
  StoreKind store;
  // Whether a location must name an authority (a bucket) after "//".
  bool needs_authority;
  // An authority that names no host in particular and compares as none ("localhost").
  std::string_view local_authority;
};

std::span<const StorageScheme> StorageSchemes();

// The scheme a bare absolute path is read under ("file").
const StorageScheme& BarePathScheme();

// The RFC 3986 scheme of `uri` as written ("S3a" in "S3a://b/k"): a letter, then letters,
// digits, '+', '-' or '.', up to the first ':'. "" when `uri` has none (a bare path, "db/t").
std::string_view UriScheme(std::string_view uri);

// The registry's entry for a scheme name, case-insensitively; nullptr when no store serves it.
const StorageScheme* FindStorageScheme(std::string_view scheme);

// The entry serving `uri`: its scheme's, or BarePathScheme() for a bare absolute path;
// nullptr for anything else (no scheme, or one no store serves).
const StorageScheme* StorageSchemeOf(std::string_view uri);

}  // namespace firn::io
