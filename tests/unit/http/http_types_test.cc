#include "http/http_types.h"

#include <gtest/gtest.h>

#include "http/request_id.h"
#include "common/worker_pool.h"

#include <atomic>
#include <condition_variable>
#include <mutex>

namespace firn::http {
namespace {

TEST(HttpTypesTest, HeaderLookupIsCaseInsensitive) {
  Request r;
  r.headers = {{"Content-Type", "application/json"}, {"X-Thing", "1"}, {"x-thing", "2"}};
  EXPECT_EQ(r.GetHeader("content-type"), "application/json");
  EXPECT_EQ(r.GetHeader("X-THING"), "1");
  EXPECT_TRUE(r.HasHeader("x-Thing"));
  EXPECT_FALSE(r.HasHeader("Authorization"));
  EXPECT_EQ(r.GetHeader("Authorization"), "");
}

TEST(HttpTypesTest, JsonSetsContentType) {
  Response r = Response::Json(201, R"({"a":1})");
  EXPECT_EQ(r.status, 201);
  EXPECT_EQ(r.GetHeader("content-type"), "application/json");
  EXPECT_EQ(r.body, R"({"a":1})");
}

TEST(HttpTypesTest, EmptyHasNoHeadersOrBody) {
  Response r = Response::Empty(204);
  EXPECT_EQ(r.status, 204);
  EXPECT_TRUE(r.headers.empty());
  EXPECT_TRUE(r.body.empty());
}

TEST(HttpTypesTest, SetHeaderReplacesCaseInsensitivelyAndDropsDuplicates) {
  Response r;
  r.headers = {{"ETag", "a"}, {"X", "1"}, {"etag", "b"}};
  r.SetHeader("etag", "c");
  ASSERT_EQ(r.headers.size(), 2u);
  EXPECT_EQ(r.GetHeader("ETag"), "c");
  r.SetHeader("Retry-After", "1");
  EXPECT_EQ(r.GetHeader("retry-after"), "1");
}

TEST(HttpTypesTest, MethodNames) {
  EXPECT_EQ(MethodName(Method::kGet), "GET");
  EXPECT_EQ(MethodName(Method::kDelete), "DELETE");
  EXPECT_EQ(MethodName(Method::kHead), "HEAD");
}

TEST(RequestIdTest, AcceptsShortSafeIds) {
  EXPECT_TRUE(IsAcceptableRequestId("abc-123_X.y"));
  EXPECT_FALSE(IsAcceptableRequestId(""));
  EXPECT_FALSE(IsAcceptableRequestId("has space"));
  EXPECT_FALSE(IsAcceptableRequestId("quote\""));
  EXPECT_FALSE(IsAcceptableRequestId(std::string(kMaxRequestIdLength + 1, 'a')));
  EXPECT_TRUE(IsAcceptableRequestId(std::string(kMaxRequestIdLength, 'a')));
}

TEST(RequestIdTest, NewIdsAreUniqueAndAcceptable) {
  std::string a = NewRequestId(), b = NewRequestId();
  EXPECT_NE(a, b);
  EXPECT_TRUE(IsAcceptableRequestId(a));
  EXPECT_EQ(a.size(), 21u);
}

TEST(WorkerPoolTest, RunsTasks) {
  // Declared before the pool so they outlive its threads.
  std::atomic<int> n{0};
  std::mutex mu;
  std::condition_variable cv;
  WorkerPool pool(2, 16);
  for (int i = 0; i < 10; ++i) {
    ASSERT_TRUE(pool.TrySubmit([&] {
      n.fetch_add(1);
      cv.notify_all();
    }));
  }
  std::unique_lock lock(mu);
  EXPECT_TRUE(cv.wait_for(lock, std::chrono::seconds(5), [&] { return n.load() == 10; }));
}

TEST(WorkerPoolTest, RefusesWhenQueueIsFull) {
  std::mutex mu;
  std::condition_variable cv;
  bool started = false, release = false;
  WorkerPool pool(1, 1);
  ASSERT_TRUE(pool.TrySubmit([&] {
    std::unique_lock lock(mu);
    started = true;
    cv.notify_all();
    cv.wait(lock, [&] { return release; });
  }));
  {
    std::unique_lock lock(mu);
    ASSERT_TRUE(cv.wait_for(lock, std::chrono::seconds(5), [&] { return started; }));
  }
  EXPECT_TRUE(pool.TrySubmit([] {}));   // waits in the queue (1 of 1)
  EXPECT_FALSE(pool.TrySubmit([] {}));  // queue full
  {
    std::lock_guard lock(mu);
    release = true;
  }
  cv.notify_all();
  pool.Shutdown();
  EXPECT_FALSE(pool.TrySubmit([] {}));  // shut down
}

}  // namespace
}  // namespace firn::http
