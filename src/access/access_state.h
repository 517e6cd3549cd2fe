// AccessState: the current AccessSnapshot of this instance, kept fresh from the AccessStore.
//
// Readers call Current() (one atomic shared_ptr load; no lock, no database). A background
// thread polls AccessStore::AccessVersion every `poll_interval` and rebuilds the snapshot when
// the version moved (signing keys opened with the process's KEKs); it also acknowledges the
// loaded version (InstanceAck) with a heartbeat (at most once per second, or at once when the
// version changes) so a writer on another instance can wait until every live instance has its
// change.
// Thread-safety: all methods are thread-safe. Start() once, Stop() (or destruction) joins.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "access/access_snapshot.h"
#include "common/result.h"
#include "store/access_store.h"

namespace firn::access {

struct AccessStateOptions {
  std::chrono::milliseconds poll_interval{100};
  // An instance whose heartbeat is older than this is not waited for.
  std::chrono::milliseconds liveness_window{5000};
  // Longest a writer waits for other instances to acknowledge its change.
  std::chrono::milliseconds propagation_timeout{3000};
};

class AccessState {
 public:
  // `keks` open the signing keys of every snapshot (auth/key_encryption.h).
  AccessState(std::shared_ptr<store::AccessStore> store, std::string instance_id,
              std::shared_ptr<const auth::KeyEncryptionKeys> keks,
              AccessStateOptions options = {});
  ~AccessState();
  AccessState(const AccessState&) = delete;
  AccessState& operator=(const AccessState&) = delete;

  // Loads the first snapshot (error if the database cannot be read) and starts the poller.
  Status Start();
  void Stop();

  std::shared_ptr<const AccessSnapshot> Current() const { return current_.load(); }

  // Reloads now if the stored version differs from the current one; acknowledges it.
  Status Refresh();
  // After this instance wrote access version `version`: load it here, then wait (bounded by
  // propagation_timeout) until every live instance acknowledged it. kServiceUnavailable when
  // the local reload fails; a slow peer is logged, not an error (it converges on its next poll).
  Status AwaitPropagation(int64_t version);

  const std::string& instance_id() const { return instance_id_; }

 private:
  void PollLoop();

  std::shared_ptr<store::AccessStore> store_;
  std::string instance_id_;
  std::shared_ptr<const auth::KeyEncryptionKeys> keks_;
  AccessStateOptions options_;
  std::atomic<std::shared_ptr<const AccessSnapshot>> current_;
  std::mutex refresh_mu_;  // one rebuild at a time; guards the two fields below
  int64_t last_acked_version_ = -1;
  int64_t last_ack_ms_ = 0;
  std::mutex stop_mu_;
  std::condition_variable stop_cv_;
  bool stopping_ = false;
  std::thread poller_;
};

}  // namespace firn::access
