#include "app/private_file.h"

#include <fcntl.h>
#include <spdlog/spdlog.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "common/log.h"

namespace firn::app {
namespace {

namespace fs = std::filesystem;

std::unexpected<Error> OsFailure(std::string what, const fs::path& path, int err) {
  return Fail(ErrorKind::kInternal, what + " " + path.string() + ": " + std::strerror(err));
}

Status WriteAndSync(int fd, std::string_view text, const fs::path& file) {
  size_t done = 0;
  while (done < text.size()) {
    ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return OsFailure("Cannot write", file, n < 0 ? errno : EIO);
    done += static_cast<size_t>(n);
  }
  if (::fsync(fd) != 0) return OsFailure("Cannot sync", file, errno);
  return Ok();
}

}  // namespace

Status SyncDirectory(const fs::path& dir) {
  const fs::path target = dir.empty() ? fs::path(".") : dir;
  int fd = ::open(target.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return OsFailure("Cannot open", target, errno);
  int rc = ::fsync(fd);
  int err = errno;
  ::close(fd);
  if (rc != 0) return OsFailure("Cannot sync", target, err);
  return Ok();
}

Status TightenToOwnerOnly(const fs::path& path, std::string_view what) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return OsFailure("Cannot read", path, errno);
  const mode_t mode = st.st_mode & 07777;
  if ((mode & 077) == 0) return Ok();
  if (::chmod(path.c_str(), mode & ~mode_t{077}) != 0) {
    // Not ours (a volume owned by root with a group for us): say so loudly, keep going; the
    // files Firn creates inside are owner-only regardless.
    spdlog::error(R"x("msg":"{} is accessible to other users and cannot be tightened; fix its permissions (chmod go-rwx)","path":"{}","mode":"{:o}","error":"{}")x",
                  log::Escape(what), log::Escape(path.string()), mode,
                  log::Escape(std::strerror(errno)));
    return Ok();
  }
  spdlog::warn(R"("msg":"{} was accessible to other users; tightened to owner-only","path":"{}","old_mode":"{:o}","new_mode":"{:o}")",
               log::Escape(what), log::Escape(path.string()), mode, mode & ~mode_t{077});
  return Ok();
}

Status EnsurePrivateDirectory(const fs::path& dir) {
  std::error_code ec;
  if (dir.has_parent_path()) fs::create_directories(dir.parent_path(), ec);
  if (::mkdir(dir.c_str(), 0700) == 0) return Ok();
  if (errno != EEXIST) return OsFailure("Cannot create data directory", dir, errno);
  if (!fs::is_directory(dir, ec)) {
    return Fail(ErrorKind::kInternal, "Data directory " + dir.string() + " is not a directory");
  }
  return TightenToOwnerOnly(dir, "data directory");
}

Status WritePrivateFile(const fs::path& file, std::string_view text) {
  std::error_code ec;
  if (fs::exists(file, ec)) {
    return Fail(ErrorKind::kAlreadyExists, "Cannot create " + file.string() + ": it exists");
  }
  const fs::path tmp = file.string() + ".tmp-" + std::to_string(::getpid());
  ::unlink(tmp.c_str());  // a leftover of a crashed run of this pid number
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) return OsFailure("Cannot create", tmp, errno);
  Status written = WriteAndSync(fd, text, tmp);
  ::close(fd);
  if (written && ::link(tmp.c_str(), file.c_str()) != 0) {
    written = errno == EEXIST
                  ? Status(Fail(ErrorKind::kAlreadyExists,
                                "Cannot create " + file.string() + ": it exists"))
                  : Status(OsFailure("Cannot create", file, errno));
  }
  ::unlink(tmp.c_str());
  if (!written) return written;
  Status synced = SyncDirectory(file.parent_path());
  if (!synced) ::unlink(file.c_str());
  return synced;
}

Status ReplaceFileDurably(const fs::path& from, const fs::path& to) {
  if (::rename(from.c_str(), to.c_str()) != 0) {
    return OsFailure("Cannot move into place", to, errno);
  }
  return SyncDirectory(to.parent_path());
}

}  // namespace firn::app
