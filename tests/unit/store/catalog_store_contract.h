// The CatalogStore contract suite: one set of tests every backend must pass.
//
// A backend test file provides a BackendFactory and instantiates the suite:
//   INSTANTIATE_TEST_SUITE_P(Sqlite, CatalogStoreContractTest,
//                            ::testing::Values(BackendFactory{"sqlite", MakeSqliteBackend}),
//                            BackendName);
// Ownership: the fixture owns the backend (its storage) and the open store.
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "store/store.h"

// Asserts that a Status or Result is OK, printing the error when it is not.
#define ASSERT_OK(expr)                                                         \
  do {                                                                          \
    auto&& ok_result_ = (expr);                                                 \
    ASSERT_TRUE(ok_result_) << ok_result_.error().message << " / "              \
                            << ok_result_.error().detail;                       \
  } while (0)

namespace firn::store::testing {

// Every audit row, oldest first.
inline std::vector<AuditEntry> AllAudit(CatalogStore& store) {
  AuditFilter filter;
  filter.after_id = 0;
  filter.limit = 1000;
  auto rows = store.ListAudit(filter);
  EXPECT_TRUE(rows) << rows.error().message << " / " << rows.error().detail;
  return rows ? *rows : std::vector<AuditEntry>{};
}

// A fresh, empty database for one test. Open() may be called again after the previous store
// is destroyed, to check that state survives a reopen.
class StoreBackend {
 public:
  virtual ~StoreBackend() = default;
  virtual Result<std::unique_ptr<CatalogStore>> Open() = 0;
};

struct BackendFactory {
  std::string name;
  std::function<std::unique_ptr<StoreBackend>()> make;
};

inline std::string BackendName(const ::testing::TestParamInfo<BackendFactory>& info) {
  return info.param.name;
}

class CatalogStoreContractTest : public ::testing::TestWithParam<BackendFactory> {
 protected:
  void SetUp() override {
    backend_ = GetParam().make();
    auto store = backend_->Open();
    ASSERT_TRUE(store) << store.error().message << " / " << store.error().detail;
    store_ = std::move(*store);
  }
  void TearDown() override {
    store_.reset();
    backend_.reset();
  }
  void Reopen() {
    store_.reset();
    auto store = backend_->Open();
    ASSERT_TRUE(store) << store.error().message << " / " << store.error().detail;
    store_ = std::move(*store);
  }

  std::unique_ptr<StoreBackend> backend_;
  std::unique_ptr<CatalogStore> store_;
  CatalogScope scope_;
};

}  // namespace firn::store::testing
