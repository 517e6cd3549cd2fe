#include "auth/secrets.h"

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/kdf.h>
#include <openssl/rand.h>

#include <charconv>
#include <cstdlib>
#include <optional>
#include <vector>

#include "common/encoding.h"
#include "common/macros.h"

namespace firn::auth {
namespace {

constexpr size_t kSaltBytes = 16;
constexpr size_t kHashBytes = 32;
constexpr std::string_view kScryptTag = "scrypt";
constexpr std::string_view kPbkdf2Tag = "pbkdf2-sha256";
// Refuse absurd stored parameters (a tampered row must not make us allocate gigabytes).
constexpr int kMaxLog2N = 20;
constexpr int kMaxIterations = 10000000;

std::string RandomBytes(size_t n) {
  std::string out(n, '\0');
  if (RAND_bytes(reinterpret_cast<unsigned char*>(out.data()), static_cast<int>(n)) != 1) {
    std::abort();  // without a CSPRNG no secret is safe; do not limp on
  }
  return out;
}

struct KdfFree {
  void operator()(EVP_KDF* k) const { EVP_KDF_free(k); }
};
struct KdfCtxFree {
  void operator()(EVP_KDF_CTX* c) const { EVP_KDF_CTX_free(c); }
};

std::optional<std::string> Scrypt(const std::string& pass, const std::string& salt, int log2_n,
                                  int r, int p, size_t out_len) {
  std::unique_ptr<EVP_KDF, KdfFree> kdf(EVP_KDF_fetch(nullptr, "SCRYPT", nullptr));
  if (!kdf) return std::nullopt;
  std::unique_ptr<EVP_KDF_CTX, KdfCtxFree> ctx(EVP_KDF_CTX_new(kdf.get()));
  if (!ctx) return std::nullopt;
  uint64_t n = uint64_t{1} << log2_n;
  uint32_t rr = static_cast<uint32_t>(r);
  uint32_t pp = static_cast<uint32_t>(p);
  // Allow exactly the memory these parameters need (OpenSSL's default cap is 32 MiB).
  uint64_t maxmem = 128 * n * rr + 128 * rr * pp + (1 << 20);
  OSSL_PARAM params[] = {
      OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_PASSWORD, const_cast<char*>(pass.data()),
                                        pass.size()),
      OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_SALT, const_cast<char*>(salt.data()),
                                        salt.size()),
      OSSL_PARAM_construct_uint64(OSSL_KDF_PARAM_SCRYPT_N, &n),
      OSSL_PARAM_construct_uint32(OSSL_KDF_PARAM_SCRYPT_R, &rr),
      OSSL_PARAM_construct_uint32(OSSL_KDF_PARAM_SCRYPT_P, &pp),
      OSSL_PARAM_construct_uint64(OSSL_KDF_PARAM_SCRYPT_MAXMEM, &maxmem),
      OSSL_PARAM_construct_end(),
  };
  std::string out(out_len, '\0');
  if (EVP_KDF_derive(ctx.get(), reinterpret_cast<unsigned char*>(out.data()), out.size(),
                     params) != 1) {
    ERR_clear_error();
    return std::nullopt;
  }
  return out;
}

std::optional<std::string> Pbkdf2(const std::string& pass, const std::string& salt, int iters,
                                  size_t out_len) {
  std::string out(out_len, '\0');
  if (PKCS5_PBKDF2_HMAC(pass.data(), static_cast<int>(pass.size()),
                        reinterpret_cast<const unsigned char*>(salt.data()),
                        static_cast<int>(salt.size()), iters, EVP_sha256(),
                        static_cast<int>(out.size()),
                        reinterpret_cast<unsigned char*>(out.data())) != 1) {
    ERR_clear_error();
    return std::nullopt;
  }
  return out;
}

std::optional<int> ParseInt(std::string_view s) {
  int v = 0;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || ptr != s.data() + s.size()) return std::nullopt;
  return v;
}

// "$tag$params$salt$hash" → its four fields.
struct Encoded {
  std::string_view tag, params, salt, hash;
};
std::optional<Encoded> Split(std::string_view s) {
  if (s.empty() || s[0] != '$') return std::nullopt;
  std::string_view parts[4];
  s.remove_prefix(1);
  for (int i = 0; i < 4; ++i) {
    size_t pos = s.find('$');
    if (i < 3) {
      if (pos == std::string_view::npos) return std::nullopt;
      parts[i] = s.substr(0, pos);
      s.remove_prefix(pos + 1);
    } else {
      if (pos != std::string_view::npos) return std::nullopt;
      parts[i] = s;
    }
  }
  return Encoded{parts[0], parts[1], parts[2], parts[3]};
}

// "ln=14,r=8,p=5" → values; nullopt when malformed or out of range.
std::optional<ScryptParams> ParseScryptParams(std::string_view s) {
  ScryptParams p{0, 0, 0};
  while (!s.empty()) {
    size_t comma = s.find(',');
    std::string_view kv = s.substr(0, comma);
    s = comma == std::string_view::npos ? std::string_view() : s.substr(comma + 1);
    size_t eq = kv.find('=');
    if (eq == std::string_view::npos) return std::nullopt;
    auto v = ParseInt(kv.substr(eq + 1));
    if (!v) return std::nullopt;
    std::string_view k = kv.substr(0, eq);
    if (k == "ln") p.log2_n = *v;
    else if (k == "r") p.r = *v;
    else if (k == "p") p.p = *v;
    else return std::nullopt;
  }
  if (p.log2_n < 1 || p.log2_n > kMaxLog2N || p.r < 1 || p.r > 32 || p.p < 1 || p.p > 64) {
    return std::nullopt;
  }
  return p;
}

std::optional<int> ParsePbkdf2Iterations(std::string_view s) {
  if (!s.starts_with("i=")) return std::nullopt;
  auto v = ParseInt(s.substr(2));
  if (!v || *v < 1 || *v > kMaxIterations) return std::nullopt;
  return v;
}

}  // namespace

Secret GenerateClientSecret() {
  // A secret that starts with '-' reads as an option to every command-line parser
  // (`polaris --client-secret -Xy…` fails), so such draws are drawn again.
  for (;;) {
    std::string s = Base64UrlEncode(RandomBytes(32));
    if (s.front() != '-') return Secret(std::move(s));
  }
}

std::string GenerateClientId() { return HexEncode(RandomBytes(8)); }

Result<std::string> HashSecretScrypt(const Secret& secret, const ScryptParams& params) {
  if (params.log2_n < 1 || params.log2_n > kMaxLog2N || params.r < 1 || params.p < 1) {
    return Fail(ErrorKind::kInternal, "Invalid scrypt parameters");
  }
  std::string salt = RandomBytes(kSaltBytes);
  auto hash = Scrypt(secret.Reveal(), salt, params.log2_n, params.r, params.p, kHashBytes);
  if (!hash) return Fail(ErrorKind::kInternal, "Secret hashing failed", "scrypt derive failed");
  return "$" + std::string(kScryptTag) + "$ln=" + std::to_string(params.log2_n) +
         ",r=" + std::to_string(params.r) + ",p=" + std::to_string(params.p) + "$" +
         Base64UrlEncode(salt) + "$" + Base64UrlEncode(*hash);
}

Result<std::string> HashSecretPbkdf2(const Secret& secret, const Pbkdf2Params& params) {
  if (params.iterations < 1 || params.iterations > kMaxIterations) {
    return Fail(ErrorKind::kInternal, "Invalid PBKDF2 parameters");
  }
  std::string salt = RandomBytes(kSaltBytes);
  auto hash = Pbkdf2(secret.Reveal(), salt, params.iterations, kHashBytes);
  if (!hash) return Fail(ErrorKind::kInternal, "Secret hashing failed", "pbkdf2 failed");
  return "$" + std::string(kPbkdf2Tag) + "$i=" + std::to_string(params.iterations) + "$" +
         Base64UrlEncode(salt) + "$" + Base64UrlEncode(*hash);
}

bool VerifySecret(const Secret& secret, std::string_view encoded) {
  auto e = Split(encoded);
  if (!e) return false;
  auto salt = Base64UrlDecode(e->salt);
  auto expected = Base64UrlDecode(e->hash);
  if (!salt || !expected || salt->empty() || expected->size() < 16 || expected->size() > 64) {
    return false;
  }
  std::optional<std::string> actual;
  if (e->tag == kScryptTag) {
    auto p = ParseScryptParams(e->params);
    if (!p) return false;
    actual = Scrypt(secret.Reveal(), *salt, p->log2_n, p->r, p->p, expected->size());
  } else if (e->tag == kPbkdf2Tag) {
    auto iters = ParsePbkdf2Iterations(e->params);
    if (!iters) return false;
    actual = Pbkdf2(secret.Reveal(), *salt, *iters, expected->size());
  } else {
    return false;
  }
  return actual && actual->size() == expected->size() &&
         CRYPTO_memcmp(actual->data(), expected->data(), expected->size()) == 0;
}

bool NeedsRehash(std::string_view encoded, const ScryptParams& params) {
  auto e = Split(encoded);
  if (!e || e->tag != kScryptTag) return true;
  auto p = ParseScryptParams(e->params);
  if (!p) return true;
  // Compare total work (N*r*p) and memory (N*r) rather than each knob separately.
  auto work = [](const ScryptParams& s) { return (uint64_t{1} << s.log2_n) * s.r * s.p; };
  auto mem = [](const ScryptParams& s) { return (uint64_t{1} << s.log2_n) * s.r; };
  return work(*p) < work(params) || mem(*p) < mem(params);
}

}  // namespace firn::auth
