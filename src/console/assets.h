// The web console's files, embedded into the binary at build time (embed_assets.cmake over
// src/console/web; docs/console.md). A fixed table: nothing is read from disk at run time, so
// no request can name a file outside it.
#pragma once

#include <span>
#include <string_view>

namespace firn::console {

struct Asset {
  std::string_view path;          // relative to web/, e.g. "index.html", "js/api.js"
  std::string_view content_type;  // from the extension, e.g. "text/javascript; charset=utf-8"
  std::string_view bytes;         // the file's content
  std::string_view etag;          // strong validator from the content's SHA-256, quoted
};

// Every embedded file, sorted by path. Static storage; never empty in a built binary.
std::span<const Asset> EmbeddedAssets();

}  // namespace firn::console
