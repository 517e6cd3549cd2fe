// In-memory AccessStore for access/ unit tests: same contract as the real stores (atomic
// writes, optimistic versions, a global version), no durability. Thread-safe (one mutex).
#pragma once

#include <map>
#include <mutex>
#include <tuple>

#include "store/access_store.h"

namespace firn::access::testing {

class FakeAccessStore : public store::AccessStore {
 public:
  Result<int64_t> AccessVersion() override {
    std::lock_guard l(mu_);
    if (fail_) return Fail(ErrorKind::kServiceUnavailable, "down");
    return version_;
  }
  Result<store::AccessRows> LoadAccess() override {
    std::lock_guard l(mu_);
    if (fail_) return Fail(ErrorKind::kServiceUnavailable, "down");
    store::AccessRows rows;
    rows.version = version_;
    for (const auto& [k, r] : records_) rows.records.push_back(r);
    return rows;
  }
  Result<int64_t> ApplyAccessWrites(const std::vector<store::AccessWrite>& writes,
                                    const store::AuditEntry* audit, int64_t now_ms) override {
    std::lock_guard l(mu_);
    if (fail_) return Fail(ErrorKind::kServiceUnavailable, "down");
    auto next = records_;
    for (const auto& w : writes) {
      Key k{w.record.realm, static_cast<int>(w.record.kind), w.record.scope, w.record.name};
      auto it = next.find(k);
      using Op = store::AccessWrite::Op;
      if (w.op == Op::kCreate && it != next.end()) return Fail(ErrorKind::kAlreadyExists, "x");
      if ((w.op == Op::kUpdate || w.op == Op::kDelete) && it == next.end()) {
        return Fail(ErrorKind::kNotFound, "x");
      }
      if (w.expected_version && it != next.end() &&
          it->second.entity_version != *w.expected_version) {
        return Fail(ErrorKind::kCommitFailed, "x");
      }
      if (w.op == Op::kDelete) {
        next.erase(it);
        continue;
      }
      store::AccessRecord r = w.record;
      r.entity_version = it == next.end() ? 1 : it->second.entity_version + 1;
      r.created_ms = it == next.end() ? now_ms : it->second.created_ms;
      r.updated_ms = now_ms;
      next[k] = std::move(r);
    }
    records_ = std::move(next);
    if (audit) audit_.push_back(*audit);
    return ++version_;
  }
  Status AppendAudit(const store::AuditEntry& e) override {
    std::lock_guard l(mu_);
    audit_.push_back(e);
    return Ok();
  }
  Result<std::vector<store::AuditEntry>> ListAudit(const store::AuditFilter&) override {
    std::lock_guard l(mu_);
    return audit_;
  }
  Status AckAccessVersion(const store::InstanceAck& ack) override {
    std::lock_guard l(mu_);
    acks_[ack.instance_id] = ack;
    return Ok();
  }
  Result<std::vector<store::InstanceAck>> LiveInstances(int64_t since_ms) override {
    std::lock_guard l(mu_);
    std::vector<store::InstanceAck> out;
    for (const auto& [id, a] : acks_) {
      if (a.heartbeat_ms >= since_ms) out.push_back(a);
    }
    return out;
  }

  void SetFailing(bool fail) {
    std::lock_guard l(mu_);
    fail_ = fail;
  }
  size_t record_count() {
    std::lock_guard l(mu_);
    return records_.size();
  }

 private:
  using Key = std::tuple<std::string, int, std::string, std::string>;
  std::mutex mu_;
  int64_t version_ = 0;
  bool fail_ = false;
  std::map<Key, store::AccessRecord> records_;
  std::vector<store::AuditEntry> audit_;
  std::map<std::string, store::InstanceAck> acks_;
};

}  // namespace firn::access::testing
