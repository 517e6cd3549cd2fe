#include "recovery/discover.h"

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>
#include <unordered_set>

#include "catalog/metadata_files.h"
#include "metadata/metadata_paths.h"

namespace firn::recovery {
namespace {

std::string_view DirName(std::string_view dir_uri) {  // "…/a/b/" → "b"
  if (dir_uri.ends_with('/')) dir_uri.remove_suffix(1);
  return FileName(dir_uri);
}

// A parallel walk: a queue of directories drained by `threads` workers, each listing one level
// and queueing the sub-directories it descends into. The first error stops it.
class Walk {
 public:
  Walk(io::ObjectStore& objects, const DiscoverOptions& options)
      : objects_(objects), options_(options) {}

  Result<std::vector<FoundTable>> Run(std::string root) {
    if (!root.ends_with('/')) root.push_back('/');
    queue_.push_back(std::move(root));
    const int threads = std::clamp(options_.threads, 1, 64);
    std::vector<std::thread> workers;
    for (int i = 0; i < threads; ++i) workers.emplace_back([this] { Work(); });
    for (std::thread& t : workers) t.join();
    if (error_) return Fail(*error_);
    std::sort(found_.begin(), found_.end(),
              [](const FoundTable& a, const FoundTable& b) { return a.dir < b.dir; });
    return std::move(found_);
  }

 private:
  void Work() {
    while (true) {
      std::string dir;
      {
        std::unique_lock lock(mu_);
        cv_.wait(lock, [&] { return !queue_.empty() || busy_ == 0 || error_; });
        if (error_ || (queue_.empty() && busy_ == 0)) {
          cv_.notify_all();
          return;
        }
        dir = std::move(queue_.front());
        queue_.pop_front();
        ++busy_;
      }
      Status visited = Visit(dir);
      std::lock_guard lock(mu_);
      --busy_;
      if (!visited && !error_) error_ = visited.error();
      cv_.notify_all();
    }
  }

  Status Visit(const std::string& dir) {
    auto children = objects_.ListChildren(dir);
    if (!children) return Fail(children.error());
    std::vector<std::string> descend;
    std::optional<FoundTable> table;
    for (const std::string& sub : children->dirs) {
      const std::string_view name = DirName(sub);
      if (name == "metadata") {
        auto meta = objects_.ListChildren(sub);
        if (!meta) return Fail(meta.error());
        FoundTable t{dir, {}};
        for (io::ObjectInfo& f : meta->objects) {
          if (IsMetadataFileName(FileName(f.uri))) t.metadata_files.push_back(std::move(f));
        }
        if (!t.metadata_files.empty()) {
          table = std::move(t);
          continue;
        }
      }
      descend.push_back(sub);
    }
    // A table's data/ is never listed; anything else under it still is (odd layouts).
    if (table) {
      std::erase_if(descend, [](const std::string& d) { return DirName(d) == "data"; });
    }
    std::lock_guard lock(mu_);
    ++dirs_;
    if (table) found_.push_back(std::move(*table));
    for (std::string& d : descend) queue_.push_back(std::move(d));
    if (options_.progress) options_.progress(dirs_, found_.size());
    return Ok();
  }

  io::ObjectStore& objects_;
  const DiscoverOptions& options_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::string> queue_;  // mu_
  int busy_ = 0;                   // mu_
  size_t dirs_ = 0;                // mu_
  std::vector<FoundTable> found_;  // mu_
  std::optional<Error> error_;     // mu_
};

}  // namespace

bool IsMetadataFileName(std::string_view name) {
  for (std::string_view suffix : {".metadata.json", ".metadata.json.gz"}) {
    if (name.ends_with(suffix) && name.size() > suffix.size() && !name.starts_with('.')) {
      return true;
    }
  }
  return false;
}

Result<std::vector<FoundTable>> Discover(io::ObjectStore& objects, std::string_view prefix,
                                         const DiscoverOptions& options) {
  return Walk(objects, options).Run(std::string(prefix));
}

TableFiles ReadCandidates(io::ObjectStore& objects, const FoundTable& table, size_t max_bytes) {
  std::vector<const io::ObjectInfo*> order;
  for (const io::ObjectInfo& f : table.metadata_files) order.push_back(&f);
  // Newest version first: its log usually names every other file, which then need no read.
  std::stable_sort(order.begin(), order.end(), [](const io::ObjectInfo* a, const io::ObjectInfo* b) {
    return metadata::ParseMetadataVersion(a->uri) > metadata::ParseMetadataVersion(b->uri);
  });
  TableFiles out;
  std::unordered_set<std::string> listed;
  for (const io::ObjectInfo* f : order) {
    const std::string name(FileName(f->uri));
    if (listed.contains(name)) {
      ++out.skipped;
      continue;
    }
    auto read = catalog::ReadTableMetadataFile(objects, f->uri, max_bytes);
    if (!read) {
      out.unreadable.push_back({f->uri, read.error().message});
      continue;
    }
    MetadataFacts facts = FactsOf(f->uri, *read);
    listed.insert(facts.log.begin(), facts.log.end());
    out.read.push_back(std::move(facts));
  }
  // A file read before a later one listed it is not a candidate; keep it (ChooseHead sees it
  // listed), and drop unreadable files that a readable one lists: they cannot be the head.
  std::erase_if(out.unreadable,
                [&](const UnreadableFile& u) { return listed.contains(std::string(FileName(u.uri))); });
  return out;
}

}  // namespace firn::recovery
