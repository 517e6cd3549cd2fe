#include "io/local/local_object_store.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <limits>
#include <system_error>
#include <utility>

#include "common/macros.h"
#include "io/storage_schemes.h"

namespace firn::io {
namespace {

int64_t ModifiedMillis(const struct stat& st) {
  return static_cast<int64_t>(st.st_mtim.tv_sec) * 1000 + st.st_mtim.tv_nsec / 1000000;
}

namespace fs = std::filesystem;

// The part of `uri` before the path ("file:", "file://", "file://localhost" or "").
Result<size_t> PathOffset(std::string_view uri) {
  if (!uri.empty() && uri.front() == '/') return size_t{0};
  const StorageScheme* scheme = StorageSchemeOf(uri);
  if (scheme == nullptr || scheme->store != StoreKind::kLocal) {
    return Fail(ErrorKind::kIllegalArgument, "Not a local file location: " + std::string(uri));
  }
  const size_t prefix = UriScheme(uri).size() + 1;  // "file:"
  std::string_view rest = uri.substr(prefix);
  if (rest.starts_with("//")) {
    // Authority form: only an empty host or the registry's local one names this machine.
    size_t slash = rest.find('/', 2);
    std::string_view host = rest.substr(2, slash == std::string_view::npos ? rest.npos : slash - 2);
    if (slash == std::string_view::npos || !(host.empty() || host == scheme->local_authority)) {
      return Fail(ErrorKind::kIllegalArgument,
                  "Unsupported file location (remote host or no path): " + std::string(uri));
    }
    return prefix + slash;
  }
  if (rest.empty() || rest.front() != '/') {
    return Fail(ErrorKind::kIllegalArgument,
                "File location must be an absolute path: " + std::string(uri));
  }
  return prefix;
}

Error IoError(int err, std::string_view what, std::string_view uri) {
  std::string detail = std::string(what) + " " + std::string(uri) + ": " + std::strerror(err);
  switch (err) {
    case ESTALE:
    case ETIMEDOUT:
    case ENOTCONN:
    case EHOSTDOWN:
    case EHOSTUNREACH:
    case ENETDOWN:
    case ENETUNREACH:
      return Error(ErrorKind::kServiceUnavailable, "Storage is unavailable", std::move(detail));
    default:
      return Error(ErrorKind::kInternal,
                   "Failed to " + std::string(what) + " file: " + std::string(uri),
                   std::move(detail));
  }
}

Error NotFound(std::string_view uri) {
  return Error(ErrorKind::kNotFound, "Failed to open input stream for file: " + std::string(uri));
}

class Fd {
 public:
  explicit Fd(int fd) : fd_(fd) {}
  ~Fd() {
    if (fd_ >= 0) ::close(fd_);
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  int get() const { return fd_; }
  // Closes now so a close() failure (possible on NFS) can be reported.
  int Close() { return ::close(std::exchange(fd_, -1)); }

 private:
  int fd_;
};

int OpenRetry(const char* path, int flags, mode_t mode = 0) {
  int fd;
  do {
    fd = ::open(path, flags, mode);
  } while (fd < 0 && errno == EINTR);
  return fd;
}

Status FsyncDirectory(const fs::path& dir, std::string_view uri) {
  Fd fd(OpenRetry(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (fd.get() < 0) return Fail(IoError(errno, "open directory of", uri));
  if (::fsync(fd.get()) != 0) return Fail(IoError(errno, "sync directory of", uri));
  return Ok();
}

// mkdir -p, fsyncing the parent of every directory it creates so the new entries are durable.
Status MakeDirectories(const fs::path& dir, std::string_view uri) {
  struct stat st;
  if (::stat(dir.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) return Ok();
    return Fail(ErrorKind::kIllegalArgument,
                "A parent of the location is not a directory: " + std::string(uri));
  }
  if (errno != ENOENT) return Fail(IoError(errno, "create directories for", uri));
  if (dir.has_parent_path() && dir.parent_path() != dir) {
    FIRN_RETURN_IF_ERROR(MakeDirectories(dir.parent_path(), uri));
  }
  if (::mkdir(dir.c_str(), 0755) != 0 && errno != EEXIST) {
    return Fail(IoError(errno, "create directories for", uri));
  }
  return FsyncDirectory(dir.parent_path(), uri);
}

Status WriteAll(int fd, std::string_view data, std::string_view uri) {
  while (!data.empty()) {
    ssize_t n = ::write(fd, data.data(), data.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return Fail(IoError(errno, "write", uri));
    }
    data.remove_prefix(static_cast<size_t>(n));
  }
  return Ok();
}

}  // namespace

bool IsLocalUri(std::string_view uri) {
  const StorageScheme* scheme = StorageSchemeOf(uri);
  return scheme != nullptr && scheme->store == StoreKind::kLocal;
}

Result<std::string> LocalPathFromUri(std::string_view uri) {
  FIRN_ASSIGN_OR_RETURN(size_t offset, PathOffset(uri));
  return std::string(uri.substr(offset));
}

Result<std::string> LocalObjectStore::Read(std::string_view uri) {
  return ReadAtMost(uri, std::numeric_limits<size_t>::max());
}

Result<std::string> LocalObjectStore::ReadAtMost(std::string_view uri, size_t max_bytes) {
  FIRN_ASSIGN_OR_RETURN(std::string path, LocalPathFromUri(uri));
  // O_NONBLOCK: opening a FIFO planted under a named location must not hang the worker (it
  // is then refused as not a regular file); reads of regular files ignore the flag.
  Fd fd(OpenRetry(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK));
  if (fd.get() < 0) {
    if (errno == ENOENT || errno == ENOTDIR) return Fail(NotFound(uri));
    return Fail(IoError(errno, "read", uri));
  }
  struct stat st;
  if (::fstat(fd.get(), &st) != 0) return Fail(IoError(errno, "read", uri));
  if (!S_ISREG(st.st_mode)) return Fail(NotFound(uri));
  if (static_cast<uint64_t>(st.st_size) > max_bytes) {
    return Fail(ObjectTooLargeError(uri, max_bytes));
  }
  std::string out;
  out.resize(static_cast<size_t>(st.st_size));
  size_t done = 0;
  while (true) {
    if (done == out.size()) {  // the file grew: keep reading, at most one byte past the limit
      if (done > max_bytes) return Fail(ObjectTooLargeError(uri, max_bytes));
      const size_t room = max_bytes - done;
      out.resize(done + (room >= 4096 ? 4096 : room + 1));
    }
    ssize_t n = ::read(fd.get(), out.data() + done, out.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      return Fail(IoError(errno, "read", uri));
    }
    if (n == 0) break;
    done += static_cast<size_t>(n);
  }
  out.resize(done);
  return out;
}

Status LocalObjectStore::WriteNew(std::string_view uri, std::string_view data) {
  FIRN_ASSIGN_OR_RETURN(std::string path_text, LocalPathFromUri(uri));
  fs::path path(path_text);
  if (!path.has_filename()) {
    return Fail(ErrorKind::kIllegalArgument, "Location names a directory: " + std::string(uri));
  }
  FIRN_RETURN_IF_ERROR(MakeDirectories(path.parent_path(), uri));
  if (::access(path.c_str(), F_OK) == 0) {
    return Fail(ErrorKind::kAlreadyExists, "File already exists: " + std::string(uri));
  }
  // Written whole under a hidden temporary name, then linked to its name: link() fails when
  // the name exists (create-only, as O_EXCL), and the name never shows a torn file, even after
  // a kill -9 in the middle (a replica's rerun trusts what exists; a recovery reads it).
  static std::atomic<uint64_t> counter{0};
  const fs::path temp = path.parent_path() /
                        ("." + path.filename().string() + ".firn-tmp-" +
                         std::to_string(::getpid()) + "-" + std::to_string(++counter));
  Fd fd(OpenRetry(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644));
  if (fd.get() < 0) return Fail(IoError(errno, "write", uri));
  auto write = [&]() -> Status {
    FIRN_RETURN_IF_ERROR(WriteAll(fd.get(), data, uri));
    if (::fsync(fd.get()) != 0) return Fail(IoError(errno, "sync", uri));
    if (fd.Close() != 0) return Fail(IoError(errno, "close", uri));
    if (::link(temp.c_str(), path.c_str()) == 0) return Ok();
    if (errno == EEXIST) {
      return Fail(ErrorKind::kAlreadyExists, "File already exists: " + std::string(uri));
    }
    if (errno != EPERM && errno != EOPNOTSUPP && errno != EXDEV) {
      return Fail(IoError(errno, "write", uri));
    }
    // A file system without hard links: rename without replacing does the same.
    if (::renameat2(AT_FDCWD, temp.c_str(), AT_FDCWD, path.c_str(), RENAME_NOREPLACE) == 0) {
      return Ok();
    }
    if (errno == EEXIST) {
      return Fail(ErrorKind::kAlreadyExists, "File already exists: " + std::string(uri));
    }
    return Fail(IoError(errno, "write", uri));
  };
  Status status = write();
  ::unlink(temp.c_str());
  if (!status) return status;
  return FsyncDirectory(path.parent_path(), uri);
}

Status LocalObjectStore::Delete(std::string_view uri) {
  FIRN_ASSIGN_OR_RETURN(std::string path, LocalPathFromUri(uri));
  if (::unlink(path.c_str()) != 0 && errno != ENOENT && errno != ENOTDIR) {
    return Fail(IoError(errno, "delete", uri));
  }
  return Ok();
}

Result<bool> LocalObjectStore::Exists(std::string_view uri) {
  FIRN_ASSIGN_OR_RETURN(std::string path, LocalPathFromUri(uri));
  struct stat st;
  if (::stat(path.c_str(), &st) == 0) return S_ISREG(st.st_mode);
  if (errno == ENOENT || errno == ENOTDIR) return false;
  return Fail(IoError(errno, "stat", uri));
}

namespace {

// The names in directory `dir` that start with `starting_with` ("." and ".." never), as
// readdir returns them: no allocation per entry but for a match, no stat. A missing directory
// has none. `uri` names the listing in errors.
Result<std::vector<std::string>> NamesIn(const std::string& dir, std::string_view starting_with,
                                         std::string_view uri) {
  std::vector<std::string> names;
  DIR* handle = ::opendir(dir.c_str());
  if (handle == nullptr) {
    if (errno == ENOENT || errno == ENOTDIR) return names;
    return Fail(IoError(errno, "list", uri));
  }
  int read_error = 0;
  while (true) {
    errno = 0;  // readdir says "end" and "error" alike with nullptr; only errno tells
    const dirent* entry = ::readdir(handle);
    if (entry == nullptr) {
      read_error = errno;
      break;
    }
    const std::string_view name(entry->d_name);
    if (name == "." || name == ".." || !name.starts_with(starting_with)) continue;
    names.emplace_back(name);
  }
  ::closedir(handle);
  if (read_error != 0) return Fail(IoError(read_error, "list", uri));
  return names;
}

}  // namespace

Result<std::vector<ObjectInfo>> LocalObjectStore::List(std::string_view prefix) {
  FIRN_ASSIGN_OR_RETURN(size_t offset, PathOffset(prefix));
  const std::string uri_head(prefix.substr(0, offset));  // listed URIs keep the prefix's form
  const std::string path_prefix(prefix.substr(offset));
  // "Starts with" is textual: "/d/meta" matches "/d/metadata/x" and "/d/meta.json", so read the
  // directory holding the last (partial) component and keep only entries whose name starts
  // with it. Names are compared as read (readdir, no allocation, no stat), so a narrow prefix
  // in a directory of thousands of files (the foreign-writer check of every commit) costs one
  // directory read; only matches are looked at further.
  const size_t cut = path_prefix.rfind('/');
  const std::string base = path_prefix.substr(0, cut + 1);  // with its trailing '/'
  const std::string_view partial = std::string_view(path_prefix).substr(cut + 1);
  std::vector<ObjectInfo> out;
  FIRN_ASSIGN_OR_RETURN(std::vector<std::string> matches, NamesIn(base, partial, prefix));
  std::error_code ec;
  for (const std::string& name : matches) {
    const std::string path = base + name;
    struct stat st;
    if (::lstat(path.c_str(), &st) != 0) continue;  // vanished while listing
    if (S_ISDIR(st.st_mode)) {
      fs::recursive_directory_iterator walk(path, ec);
      if (ec) return Fail(IoError(ec.value(), "list", prefix));
      for (auto it = fs::begin(walk); it != fs::end(walk); it.increment(ec)) {
        if (ec) return Fail(IoError(ec.value(), "list", prefix));
        std::error_code size_ec;
        if (!it->is_regular_file(size_ec)) continue;
        struct stat file;
        if (::stat(it->path().c_str(), &file) != 0) continue;  // vanished while listing
        out.push_back(ObjectInfo{uri_head + it->path().string(),
                                 static_cast<int64_t>(file.st_size), ModifiedMillis(file)});
      }
      if (ec) return Fail(IoError(ec.value(), "list", prefix));
      continue;
    }
    // A symbolic link counts when it leads to a file (never followed into a directory).
    if (S_ISLNK(st.st_mode) && ::stat(path.c_str(), &st) != 0) continue;
    if (!S_ISREG(st.st_mode)) continue;
    out.push_back(ObjectInfo{uri_head + path, static_cast<int64_t>(st.st_size), ModifiedMillis(st)});
  }
  std::sort(out.begin(), out.end(),
            [](const ObjectInfo& a, const ObjectInfo& b) { return a.uri < b.uri; });
  return out;
}

Result<ObjectStore::Children> LocalObjectStore::ListChildren(std::string_view dir) {
  std::string prefix(dir);
  if (prefix.empty() || prefix.back() != '/') prefix.push_back('/');
  FIRN_ASSIGN_OR_RETURN(size_t offset, PathOffset(prefix));
  const std::string path = prefix.substr(offset);
  Children out;
  FIRN_ASSIGN_OR_RETURN(std::vector<std::string> names, NamesIn(path, "", dir));
  std::sort(names.begin(), names.end());
  for (const std::string& name : names) {
    struct stat st;
    if (::lstat((path + name).c_str(), &st) != 0) continue;  // vanished while listing
    if (S_ISDIR(st.st_mode)) {
      out.dirs.push_back(prefix + name + "/");
      continue;
    }
    if (S_ISLNK(st.st_mode) && ::stat((path + name).c_str(), &st) != 0) continue;
    if (!S_ISREG(st.st_mode)) continue;
    out.objects.push_back(
        ObjectInfo{prefix + name, static_cast<int64_t>(st.st_size), ModifiedMillis(st)});
  }
  return out;
}

}  // namespace firn::io
