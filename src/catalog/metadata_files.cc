#include "catalog/metadata_files.h"

#include <spdlog/spdlog.h>

#include <string_view>

#include "common/log.h"
#include "common/macros.h"
#include "metadata/gzip.h"
#include "metadata/serde.h"
#include "metadata/view_serde.h"

namespace firn::catalog {
namespace {

// The one answer to a caller-named file that is not usable metadata. `why` (which check
// failed, never the content) goes to the log only.
Error NotMetadata(std::string_view kind, const std::string& location, size_t limit,
                  std::string_view why) {
  spdlog::info(R"("msg":"register: not a {} metadata file","file":"{}","reason":"{}")", kind,
               log::Escape(location), why);
  return Error(ErrorKind::kBadRequest,
               "Invalid metadata-location: " + location + " is not a " + std::string(kind) +
                   " metadata file of at most " + std::to_string(limit) + " bytes");
}

// The file's JSON text, inflated if it is gzip.
Result<std::string> ReadText(io::ObjectStore& objects, const std::string& location,
                             std::optional<size_t> limit, std::string_view kind) {
  if (!limit) {
    FIRN_ASSIGN_OR_RETURN(std::string bytes, objects.Read(location));
    return metadata::GunzipIfNeeded(location, std::move(bytes));
  }
  Result<std::string> bytes = objects.ReadAtMost(location, *limit);
  if (!bytes) {
    if (bytes.error().kind != ErrorKind::kPayloadTooLarge) return Fail(bytes.error());
    return Fail(NotMetadata(kind, location, *limit, "file too large"));
  }
  Result<std::string> text = metadata::GunzipIfNeeded(location, std::move(*bytes), *limit);
  if (!text) return Fail(NotMetadata(kind, location, *limit, "corrupt or oversized gzip"));
  return text;
}

template <typename Metadata>
Result<Metadata> ReadFile(io::ObjectStore& objects, const std::string& location,
                          std::optional<size_t> limit, std::string_view kind,
                          Result<Metadata> (*parse)(std::string_view)) {
  FIRN_ASSIGN_OR_RETURN(std::string text, ReadText(objects, location, limit, kind));
  Result<Metadata> parsed = parse(text);
  if (parsed) return parsed;
  if (limit) return Fail(NotMetadata(kind, location, *limit, "does not parse as metadata"));
  return Fail(ErrorKind::kInternal, "Cannot read " + std::string(kind) + " metadata file " +
                                        location + ": " + parsed.error().message);
}

}  // namespace

Result<metadata::TableMetadata> ReadTableMetadataFile(io::ObjectStore& objects,
                                                      const std::string& location,
                                                      std::optional<size_t> caller_file_limit) {
  return ReadFile(objects, location, caller_file_limit, "table", metadata::ParseTableMetadata);
}

Result<metadata::ViewMetadata> ReadViewMetadataFile(io::ObjectStore& objects,
                                                    const std::string& location,
                                                    std::optional<size_t> caller_file_limit) {
  return ReadFile(objects, location, caller_file_limit, "view", metadata::ParseViewMetadata);
}

}  // namespace firn::catalog
