// Prints (does not assert) the fastest of N runs of VerifySecret for a matching secret and for secrets
// that differ in their first or their last character. The comparison is CRYPTO_memcmp over the
// whole derived key and the KDF runs in full every time, so the three should agree within
// noise. (The equal-work property of the token endpoint is asserted in
// TokenServiceSecurityTest.EveryAttemptCostsTwoVerifications.) Run: firn_auth_test --gtest_filter='SecretTiming*' (read Release numbers).
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

#include "auth/secrets.h"

namespace firn::auth {
namespace {

double Micros(const Secret& secret, const std::string& hash, bool expected) {
  auto start = std::chrono::steady_clock::now();
  bool ok = VerifySecret(secret, hash);
  double us =
      std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(ok, expected);
  return us;
}

// The minimum, not the median: on a shared machine load only ever adds time, so the fastest
// run is the closest to the intrinsic cost of each case.
double Fastest(const std::vector<double>& v) { return *std::min_element(v.begin(), v.end()); }

TEST(SecretTimingTest, MatchAndEarlyOrLateMismatchCostTheSame) {
  const std::string real = "9dX1vQ2mN7pL4kR8sT3wY6zA5bC0eF1gH2iJ3kL4mN5";
  // Cheaper than production (ln=10) so the test stays fast; the code path is the same.
  auto hash = HashSecretScrypt(Secret(real), ScryptParams{10, 8, 1});
  ASSERT_TRUE(hash);
  std::string first = real, last = real;
  first.front() = first.front() == 'x' ? 'y' : 'x';
  last.back() = last.back() == 'x' ? 'y' : 'x';
  const int reps = 21;
  std::vector<double> m, e, l;
  for (int i = 0; i < reps; ++i) {  // interleaved, so machine drift hits all three alike
    m.push_back(Micros(Secret(real), *hash, true));
    e.push_back(Micros(Secret(first), *hash, false));
    l.push_back(Micros(Secret(last), *hash, false));
  }
  double match = Fastest(m), early = Fastest(e), late = Fastest(l);
  std::printf("VerifySecret fastest of %d (scrypt ln=10, r=8, p=1): match %.0f us, "
              "first-char mismatch %.0f us, last-char mismatch %.0f us\n",
              reps, match, early, late);
}

}  // namespace
}  // namespace firn::auth
