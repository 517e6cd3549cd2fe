#include "app/bootstrap_command.h"

#include <boost/json/serialize.hpp>
#include <boost/json/value.hpp>

#include <iostream>
#include <optional>

#include "access/bootstrap.h"
#include "app/store_factory.h"
#include "app/kek_setup.h"
#include "app/private_file.h"
#include "auth/key_encryption.h"
#include "common/clock.h"
#include "common/macros.h"

namespace firn::app {
namespace {

int Failed(const Error& e, int code = 1) {
  std::cerr << "firn: " << e.message << "\n";
  return code;
}

}  // namespace

Result<ServerConfig> ConfigFromFlags(const StoreFlags& flags) {
  ServerConfig config;
  if (!flags.config_file.empty()) FIRN_RETURN_IF_ERROR(ApplyConfigFile(flags.config_file, config));
  FIRN_RETURN_IF_ERROR(ApplyEnvironment(config));
  auto set = [&](const char* key, const std::string& value) -> Status {
    return value.empty() ? Ok() : ApplySetting(key, value, config);
  };
  FIRN_RETURN_IF_ERROR(set("db", flags.db_url));
  FIRN_RETURN_IF_ERROR(set("data_dir", flags.data_dir));
  FIRN_RETURN_IF_ERROR(set("db_password_file", flags.password_file));
  FIRN_RETURN_IF_ERROR(set("kek_file", flags.kek_file));
  FIRN_RETURN_IF_ERROR(set("previous_kek_file", flags.previous_kek_file));
  FIRN_RETURN_IF_ERROR(set("catalog_name", flags.catalog_name));
  FIRN_RETURN_IF_ERROR(set("warehouse", flags.warehouse));
  FIRN_RETURN_IF_ERROR(set("storage_roots", flags.storage_roots));
  FIRN_RETURN_IF_ERROR(Finalize(config));
  return config;
}

int RunBootstrap(const BootstrapArgs& args) {
  if (args.admin.empty()) return Failed(Error(ErrorKind::kIllegalArgument, "--admin is required"), 2);
  auto config = ConfigFromFlags(args.store);
  if (!config) return Failed(config.error(), 2);
  auto creds = access::BootstrapCredentialsFromEnv(args.realm);
  if (!creds) return Failed(creds.error(), 2);
  auto store = OpenStoreByUrl(config->db_url, config->db_password);
  if (!store) return Failed(store.error());

  access::BootstrapOptions options;
  options.realm = args.realm;
  options.admin_name = args.admin;
  options.credentials = std::move(*creds);
  bool supplied = options.credentials.has_value();
  if (!args.no_catalog) {
    catalog::CatalogInfo info;
    info.name = config->catalog_name;
    info.base_location = DefaultCatalogBase(*config, args.realm);
    options.catalog = std::move(info);
  }
  auto keks = PrepareKeyEncryption(**store, *config);
  if (!keks) return Failed(keks.error());
  auto result = access::Bootstrap(**store, options, **keks, NowMillis());
  if (!result) return Failed(result.error());

  boost::json::object out;
  out["realm"] = args.realm;
  out["bootstrapped"] = result->created;
  if (result->created) {
    out["principal"] = result->admin_name;
    out["client_id"] = result->credentials.client_id;
    // Printed once, here; never logged. Supplied secrets are not echoed.
    if (!supplied) out["client_secret"] = result->credentials.secret.Reveal();
  } else {
    out["message"] = "realm already bootstrapped; nothing changed";
  }
  if (options.catalog) {
    out["catalog"] = options.catalog->name;
    out["catalog_created"] = result->catalog_created;
  }
  std::cout << boost::json::serialize(out) << std::endl;
  return 0;
}

int RunRotateKeys(const RotateKeysArgs& args) {
  auto config = ConfigFromFlags(args.store);
  if (!config) return Failed(config.error(), 2);
  auto store = OpenStoreByUrl(config->db_url, config->db_password);
  if (!store) return Failed(store.error());
  auto keks = PrepareKeyEncryption(**store, *config);
  if (!keks) return Failed(keks.error());
  auto version = access::RotateSigningKeys(**store, args.realm, **keks, args.overlap_seconds,
                                           NowMillis() / 1000);
  if (!version) return Failed(version.error());
  boost::json::object out;
  out["realm"] = args.realm;
  out["rotated"] = true;
  out["previous_key_verifies_for_seconds"] = args.overlap_seconds;
  std::cout << boost::json::serialize(out) << std::endl;
  return 0;
}

int RunRotateKek(const RotateKekArgs& args) {
  auto config = ConfigFromFlags(args.store);
  if (!config) return Failed(config.error(), 2);
  std::optional<Secret> next;
  if (!args.new_kek_file.empty()) {
    auto text = ReadSecretFile(args.new_kek_file);
    if (!text) return Failed(text.error(), 2);
    next = std::move(*text);
  }
  auto store = OpenStoreByUrl(config->db_url, config->db_password);
  if (!store) return Failed(store.error());
  auto rotation = RotateKek(**store, *config, std::move(next), store->get());
  if (!rotation) return Failed(rotation.error());
  boost::json::object out;
  out["rotated"] = true;
  out["previous_kek_id"] = rotation->previous_id;
  out["kek_id"] = rotation->next_id;
  out["resealed"] = rotation->resealed;
  out["resealed_sink_secrets"] = rotation->resealed_sink_secrets;
  if (rotation->sealed > 0) out["sealed_from_plaintext"] = rotation->sealed;
  if (!rotation->default_file.empty()) {
    out["kek_file"] = rotation->default_file;
  } else {
    out["next_step"] = "configure the new KEK (kek-file) on every instance and restart them";
  }
  std::cout << boost::json::serialize(out) << std::endl;
  return 0;
}

int RunGenerateKek(const std::string& to) {
  Secret text = auth::KeyEncryptionKey::GenerateText();
  if (to.empty()) {
    std::cout << text.Reveal() << std::endl;  // for a secret store; nothing else is printed
    return 0;
  }
  auto kek = auth::KeyEncryptionKey::FromText(text);
  if (!kek) return Failed(kek.error());
  if (auto st = WritePrivateFile(to, text.Reveal() + "\n"); !st) return Failed(st.error());
  boost::json::object out;
  out["kek_file"] = to;
  out["kek_id"] = kek->id();
  std::cout << boost::json::serialize(out) << std::endl;
  return 0;
}

}  // namespace firn::app
