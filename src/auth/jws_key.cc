#include "auth/jws_key.h"

#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/err.h>
#include <openssl/pem.h>

#include <cstring>
#include <vector>

#include "common/macros.h"

namespace firn::auth {
namespace {

struct MdCtxFree {
  void operator()(EVP_MD_CTX* c) const { EVP_MD_CTX_free(c); }
};
using MdCtx = std::unique_ptr<EVP_MD_CTX, MdCtxFree>;

std::string OpensslError() {
  unsigned long code = ERR_get_error();
  ERR_clear_error();
  if (code == 0) return "unknown OpenSSL error";
  char buf[256];
  ERR_error_string_n(code, buf, sizeof(buf));
  return buf;
}

const EVP_MD* DigestFor(JwsAlg alg) {
  return alg == JwsAlg::kEdDSA ? nullptr : EVP_sha256();  // Ed25519 hashes internally
}

// ES256 signatures are raw 32-byte R || 32-byte S in JWS; OpenSSL speaks DER.
std::optional<std::string> DerToRaw(const unsigned char* der, size_t len) {
  const unsigned char* p = der;
  ECDSA_SIG* sig = d2i_ECDSA_SIG(nullptr, &p, static_cast<long>(len));
  if (sig == nullptr) return std::nullopt;
  const BIGNUM* r = nullptr;
  const BIGNUM* s = nullptr;
  ECDSA_SIG_get0(sig, &r, &s);
  std::string out(64, '\0');
  bool ok = BN_bn2binpad(r, reinterpret_cast<unsigned char*>(out.data()), 32) == 32 &&
            BN_bn2binpad(s, reinterpret_cast<unsigned char*>(out.data()) + 32, 32) == 32;
  ECDSA_SIG_free(sig);
  if (!ok) return std::nullopt;
  return out;
}

std::optional<std::vector<unsigned char>> RawToDer(std::string_view raw) {
  if (raw.size() != 64) return std::nullopt;
  const auto* p = reinterpret_cast<const unsigned char*>(raw.data());
  BIGNUM* r = BN_bin2bn(p, 32, nullptr);
  BIGNUM* s = BN_bin2bn(p + 32, 32, nullptr);
  ECDSA_SIG* sig = ECDSA_SIG_new();
  if (r == nullptr || s == nullptr || sig == nullptr || ECDSA_SIG_set0(sig, r, s) != 1) {
    BN_free(r);
    BN_free(s);
    ECDSA_SIG_free(sig);
    return std::nullopt;
  }
  int len = i2d_ECDSA_SIG(sig, nullptr);
  std::vector<unsigned char> der(len > 0 ? static_cast<size_t>(len) : 0);
  unsigned char* out = der.data();
  if (len <= 0 || i2d_ECDSA_SIG(sig, &out) != len) {
    ECDSA_SIG_free(sig);
    return std::nullopt;
  }
  ECDSA_SIG_free(sig);
  return der;
}

}  // namespace

std::string_view JwsAlgName(JwsAlg alg) {
  switch (alg) {
    case JwsAlg::kEdDSA: return "EdDSA";
    case JwsAlg::kRS256: return "RS256";
    case JwsAlg::kES256: return "ES256";
  }
  return "?";
}

std::optional<JwsAlg> ParseJwsAlg(std::string_view name) {
  if (name == "EdDSA") return JwsAlg::kEdDSA;
  if (name == "RS256") return JwsAlg::kRS256;
  if (name == "ES256") return JwsAlg::kES256;
  return std::nullopt;
}

PkeyPtr WrapPkey(EVP_PKEY* raw) {
  if (raw == nullptr) return nullptr;
  return PkeyPtr(raw, EVP_PKEY_free);
}

Status CheckKeyMatchesAlg(const EVP_PKEY* key, JwsAlg alg) {
  if (key == nullptr) return Fail(ErrorKind::kInternal, "Missing key");
  int id = EVP_PKEY_get_base_id(key);
  switch (alg) {
    case JwsAlg::kEdDSA:
      if (id == EVP_PKEY_ED25519) return Ok();
      break;
    case JwsAlg::kRS256:
      if (id == EVP_PKEY_RSA) {
        if (EVP_PKEY_get_bits(key) < 2048) {
          return Fail(ErrorKind::kBadRequest, "RSA key shorter than 2048 bits");
        }
        return Ok();
      }
      break;
    case JwsAlg::kES256:
      if (id == EVP_PKEY_EC) {
        char group[64] = {};
        size_t len = 0;
        if (EVP_PKEY_get_utf8_string_param(key, OSSL_PKEY_PARAM_GROUP_NAME, group, sizeof(group),
                                           &len) == 1 &&
            (std::strcmp(group, "prime256v1") == 0 || std::strcmp(group, "P-256") == 0)) {
          return Ok();
        }
        return Fail(ErrorKind::kBadRequest, "ES256 needs a P-256 key");
      }
      break;
  }
  return Fail(ErrorKind::kBadRequest,
              "Key type does not match algorithm " + std::string(JwsAlgName(alg)));
}

Result<std::string> SignBytes(JwsAlg alg, EVP_PKEY* private_key, std::string_view input) {
  FIRN_RETURN_IF_ERROR(CheckKeyMatchesAlg(private_key, alg));
  MdCtx ctx(EVP_MD_CTX_new());
  if (!ctx || EVP_DigestSignInit(ctx.get(), nullptr, DigestFor(alg), nullptr, private_key) != 1) {
    return Fail(ErrorKind::kInternal, "Signing failed", OpensslError());
  }
  const auto* in = reinterpret_cast<const unsigned char*>(input.data());
  size_t len = 0;
  if (EVP_DigestSign(ctx.get(), nullptr, &len, in, input.size()) != 1) {
    return Fail(ErrorKind::kInternal, "Signing failed", OpensslError());
  }
  std::vector<unsigned char> sig(len);
  if (EVP_DigestSign(ctx.get(), sig.data(), &len, in, input.size()) != 1) {
    return Fail(ErrorKind::kInternal, "Signing failed", OpensslError());
  }
  if (alg == JwsAlg::kES256) {
    auto raw = DerToRaw(sig.data(), len);
    if (!raw) return Fail(ErrorKind::kInternal, "Signing failed", "bad ECDSA DER");
    return *raw;
  }
  return std::string(reinterpret_cast<const char*>(sig.data()), len);
}

bool VerifyBytes(JwsAlg alg, EVP_PKEY* public_key, std::string_view input,
                 std::string_view signature) {
  if (!CheckKeyMatchesAlg(public_key, alg)) return false;
  std::vector<unsigned char> der;
  const auto* sig = reinterpret_cast<const unsigned char*>(signature.data());
  size_t sig_len = signature.size();
  if (alg == JwsAlg::kES256) {
    auto converted = RawToDer(signature);
    if (!converted) return false;
    der = std::move(*converted);
    sig = der.data();
    sig_len = der.size();
  }
  MdCtx ctx(EVP_MD_CTX_new());
  if (!ctx ||
      EVP_DigestVerifyInit(ctx.get(), nullptr, DigestFor(alg), nullptr, public_key) != 1) {
    ERR_clear_error();
    return false;
  }
  int rc = EVP_DigestVerify(ctx.get(), sig, sig_len,
                            reinterpret_cast<const unsigned char*>(input.data()), input.size());
  ERR_clear_error();
  return rc == 1;
}

Result<SigningKey> SigningKey::GenerateEd25519(std::string kid) {
  EVP_PKEY* raw = EVP_PKEY_Q_keygen(nullptr, nullptr, "ED25519");
  if (raw == nullptr) return Fail(ErrorKind::kInternal, "Key generation failed", OpensslError());
  return SigningKey(std::move(kid), JwsAlg::kEdDSA, WrapPkey(raw));
}

Result<SigningKey> SigningKey::FromPem(std::string kid, JwsAlg alg, const Secret& pem) {
  const std::string& text = pem.Reveal();
  BIO* bio = BIO_new_mem_buf(text.data(), static_cast<int>(text.size()));
  if (bio == nullptr) return Fail(ErrorKind::kInternal, "Out of memory");
  EVP_PKEY* raw = PEM_read_bio_PrivateKey(bio, nullptr, nullptr, nullptr);
  BIO_free(bio);
  if (raw == nullptr) {
    // Never echo the PEM: it is a secret.
    return Fail(ErrorKind::kBadRequest, "Invalid private key PEM", OpensslError());
  }
  PkeyPtr key = WrapPkey(raw);
  FIRN_RETURN_IF_ERROR(CheckKeyMatchesAlg(key.get(), alg));
  return SigningKey(std::move(kid), alg, std::move(key));
}

Result<Secret> SigningKey::PrivateKeyPem() const {
  BIO* bio = BIO_new(BIO_s_mem());
  if (bio == nullptr) return Fail(ErrorKind::kInternal, "Out of memory");
  if (PEM_write_bio_PrivateKey(bio, key_.get(), nullptr, nullptr, 0, nullptr, nullptr) != 1) {
    BIO_free(bio);
    return Fail(ErrorKind::kInternal, "Key export failed", OpensslError());
  }
  char* data = nullptr;
  long len = BIO_get_mem_data(bio, &data);
  Secret out(std::string(data, static_cast<size_t>(len)));
  BIO_free(bio);
  return out;
}

VerificationKey SigningKey::Verifier() const {
  // The EVP_PKEY holds both halves; verification only ever reads the public half.
  return VerificationKey{kid_, alg_, key_};
}

}  // namespace firn::auth
