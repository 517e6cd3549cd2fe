#include "auth/key_encryption.h"

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/kdf.h>
#include <openssl/rand.h>

#include <memory>

#include "common/encoding.h"
#include "auth/secrets.h"
#include "common/macros.h"

namespace firn::auth {
namespace {

constexpr size_t kKeyBytes = 32;
constexpr size_t kIdBytes = 12;  // 16 base64url characters
constexpr size_t kIvBytes = 12;
constexpr size_t kTagBytes = 16;
// HKDF labels: one salt for Firn's KEKs, one info string per derived value.
constexpr std::string_view kSalt = "firn key-encryption key v1";
constexpr std::string_view kKeyInfo = "AES-256-GCM signing-key sealing";
constexpr std::string_view kIdInfo = "public key-encryption key id";

using Kdf = std::unique_ptr<EVP_KDF, decltype(&EVP_KDF_free)>;
using KdfCtx = std::unique_ptr<EVP_KDF_CTX, decltype(&EVP_KDF_CTX_free)>;
using CipherCtx = std::unique_ptr<EVP_CIPHER_CTX, decltype(&EVP_CIPHER_CTX_free)>;

std::unexpected<Error> OpenSslFailure(std::string_view what) {
  ERR_clear_error();
  return Fail(ErrorKind::kInternal, "Key encryption failed", std::string(what));
}

Result<std::string> Hkdf(std::string_view ikm, std::string_view info, size_t out_len) {
  Kdf kdf(EVP_KDF_fetch(nullptr, "HKDF", nullptr), &EVP_KDF_free);
  if (!kdf) return OpenSslFailure("HKDF unavailable");
  KdfCtx ctx(EVP_KDF_CTX_new(kdf.get()), &EVP_KDF_CTX_free);
  if (!ctx) return OpenSslFailure("HKDF context");
  char digest[] = "SHA256";
  OSSL_PARAM params[] = {
      OSSL_PARAM_construct_utf8_string(OSSL_KDF_PARAM_DIGEST, digest, 0),
      OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_KEY, const_cast<char*>(ikm.data()),
                                        ikm.size()),
      OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_SALT, const_cast<char*>(kSalt.data()),
                                        kSalt.size()),
      OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_INFO, const_cast<char*>(info.data()),
                                        info.size()),
      OSSL_PARAM_construct_end(),
  };
  std::string out(out_len, '\0');
  if (EVP_KDF_derive(ctx.get(), reinterpret_cast<unsigned char*>(out.data()), out.size(),
                     params) != 1) {
    return OpenSslFailure("HKDF derive");
  }
  return out;
}

const unsigned char* Bytes(std::string_view s) {
  return reinterpret_cast<const unsigned char*>(s.data());
}

std::unexpected<Error> DoesNotOpen(std::string_view why) {
  ERR_clear_error();
  return Fail(ErrorKind::kNotAuthorized, "Sealed key does not open with this key-encryption key",
              std::string(why));
}

constexpr int kEncrypt = 1;
constexpr int kDecrypt = 0;

// An AES-256-GCM context keyed with `key` and `iv`, the associated data already fed in (the same
// start for sealing and opening); null when OpenSSL fails.
CipherCtx StartGcm(int direction, const std::string& key, const unsigned char* iv,
                   std::string_view associated_data) {
  CipherCtx ctx(EVP_CIPHER_CTX_new(), &EVP_CIPHER_CTX_free);
  int len = 0;
  if (!ctx ||
      EVP_CipherInit_ex(ctx.get(), EVP_aes_256_gcm(), nullptr, Bytes(key), iv, direction) != 1 ||
      EVP_CipherUpdate(ctx.get(), nullptr, &len, Bytes(associated_data),
                       static_cast<int>(associated_data.size())) != 1) {
    ctx.reset();
  }
  return ctx;
}

}  // namespace

Result<KeyEncryptionKey> KeyEncryptionKey::FromText(const Secret& text) {
  if (text.Reveal().size() < kMinTextBytes) {
    return Fail(ErrorKind::kIllegalArgument,
                "The key-encryption key is too short: it needs at least " +
                    std::to_string(kMinTextBytes) +
                    " bytes (generate one with `firn admin generate-kek`)");
  }
  FIRN_ASSIGN_OR_RETURN(std::string key, Hkdf(text.Reveal(), kKeyInfo, kKeyBytes));
  FIRN_ASSIGN_OR_RETURN(std::string id, Hkdf(text.Reveal(), kIdInfo, kIdBytes));
  return KeyEncryptionKey(Base64UrlEncode(id), Secret(std::move(key)));
}

Secret KeyEncryptionKey::GenerateText() { return GenerateClientSecret(); }

Result<std::string> KeyEncryptionKey::Seal(const Secret& plaintext,
                                           std::string_view associated_data) const {
  const std::string& in = plaintext.Reveal();
  std::string out(kIvBytes + in.size() + kTagBytes, '\0');
  auto* iv = reinterpret_cast<unsigned char*>(out.data());
  if (RAND_bytes(iv, static_cast<int>(kIvBytes)) != 1) std::abort();  // no CSPRNG: stop
  CipherCtx ctx = StartGcm(kEncrypt, key_.Reveal(), iv, associated_data);
  int len = 0;
  if (!ctx ||
      EVP_EncryptUpdate(ctx.get(), iv + kIvBytes, &len, Bytes(in),
                        static_cast<int>(in.size())) != 1 ||
      EVP_EncryptFinal_ex(ctx.get(), iv + kIvBytes + len, &len) != 1 ||
      EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_GET_TAG, static_cast<int>(kTagBytes),
                          iv + kIvBytes + in.size()) != 1) {
    OPENSSL_cleanse(out.data(), out.size());
    return OpenSslFailure("AES-256-GCM seal");
  }
  std::string sealed = Base64UrlEncode(out);
  return sealed;
}

Result<Secret> KeyEncryptionKey::Open(std::string_view sealed,
                                      std::string_view associated_data) const {
  auto raw = Base64UrlDecode(sealed);
  if (!raw) return DoesNotOpen("not base64url");
  if (raw->size() < kIvBytes + kTagBytes) return DoesNotOpen("too short");
  const size_t n = raw->size() - kIvBytes - kTagBytes;
  auto* iv = reinterpret_cast<unsigned char*>(raw->data());
  std::string plain(n, '\0');
  auto* out = reinterpret_cast<unsigned char*>(plain.data());
  CipherCtx ctx = StartGcm(kDecrypt, key_.Reveal(), iv, associated_data);
  int len = 0;
  if (!ctx ||
      EVP_DecryptUpdate(ctx.get(), out, &len, iv + kIvBytes, static_cast<int>(n)) != 1) {
    OPENSSL_cleanse(plain.data(), plain.size());
    return OpenSslFailure("AES-256-GCM open");
  }
  int tail = 0;
  if (EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_SET_TAG, static_cast<int>(kTagBytes),
                          iv + kIvBytes + n) != 1 ||
      EVP_DecryptFinal_ex(ctx.get(), out + len, &tail) != 1) {
    OPENSSL_cleanse(plain.data(), plain.size());
    return DoesNotOpen("tag mismatch");
  }
  return Secret(std::move(plain));
}

KeyEncryptionKeys::KeyEncryptionKeys(KeyEncryptionKey primary,
                                     std::vector<KeyEncryptionKey> others) {
  keys_.push_back(std::move(primary));
  for (auto& k : others) {
    if (Find(k.id()) == nullptr) keys_.push_back(std::move(k));
  }
}

const KeyEncryptionKey* KeyEncryptionKeys::Find(std::string_view id) const {
  for (const auto& k : keys_) {
    if (k.id() == id) return &k;
  }
  return nullptr;
}

std::vector<std::string> KeyEncryptionKeys::ids() const {
  std::vector<std::string> out;
  for (const auto& k : keys_) out.push_back(k.id());
  return out;
}

}  // namespace firn::auth
