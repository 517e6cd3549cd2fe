#include "app/kek_setup.h"

#include <spdlog/spdlog.h>

#include <filesystem>
#include <vector>

#include "access/access_records.h"
#include "access/bootstrap.h"
#include "app/store_factory.h"
#include "app/private_file.h"
#include "events/change_events.h"
#include "common/clock.h"
#include "common/log.h"
#include "store/postgres/pg_url.h"
#include "common/macros.h"
#include "store/sqlite/sqlite_connection.h"

namespace firn::app {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view kStagedSuffix = ".next";

Result<auth::KeyEncryptionKey> KekFrom(const Secret& text, std::string_view source) {
  auto kek = auth::KeyEncryptionKey::FromText(text);
  if (!kek) {
    return Fail(kek.error().kind, std::string(source) + ": " + kek.error().message,
                kek.error().detail);
  }
  return kek;
}

Result<auth::KeyEncryptionKey> KekFromFile(const fs::path& file) {
  FIRN_ASSIGN_OR_RETURN(Secret text, ReadSecretFile(file.string()));
  return KekFrom(text, file.string());
}

// The id of some KEK a stored signing key is sealed with ("" when none is sealed).
Result<std::string> AnySealedWith(store::AccessStore& store) {
  FIRN_ASSIGN_OR_RETURN(store::AccessRows rows, store.LoadAccess());
  for (const auto& r : rows.records) {
    if (r.kind != store::AccessKind::kSigningKey) continue;
    auto row = access::InspectSigningKey(r);
    if (row && !row->kek_id.empty()) return row->kek_id;
  }
  return std::string();
}

// After rewriting key rows on SQLite: fold the WAL into the database file and truncate it, so
// no page image of the old rows stays in firn.db-wal (the store deletes securely).
void ScrubSqlite(const ServerConfig& config) {
  if (store::IsPostgresUrl(config.db_url)) return;
  auto path = SqlitePathOfUrl(config.db_url);
  Status scrubbed = path ? store::sqlite::CheckpointAndTruncateWal(*path)
                         : Status(std::unexpected(path.error()));
  if (!scrubbed) {
    spdlog::warn(R"("msg":"could not truncate the WAL after rewriting signing keys; old row images stay in it until the next checkpoint","error":"{}","detail":"{}")",
                 log::Escape(scrubbed.error().message), log::Escape(scrubbed.error().detail));
  }
}

}  // namespace

std::string DefaultKekPath(const std::string& sqlite_path) {
  fs::path dir = fs::absolute(sqlite_path).lexically_normal().parent_path();
  if (!dir.has_filename()) dir = dir.parent_path();
  if (dir.empty() || dir == dir.root_path()) return {};
  return dir.string() + ".kek";
}

Result<ResolvedKeks> ResolveKeks(store::AccessStore& store, const ServerConfig& config,
                                 bool may_generate) {
  ResolvedKeks out;
  std::vector<auth::KeyEncryptionKey> others;
  if (!config.previous_kek.empty()) {
    FIRN_ASSIGN_OR_RETURN(auto previous, KekFrom(config.previous_kek, "previous-kek"));
    others.push_back(std::move(previous));
  }
  if (!config.kek.empty()) {
    FIRN_ASSIGN_OR_RETURN(auto primary, KekFrom(config.kek, "kek"));
    out.keks = std::make_shared<const auth::KeyEncryptionKeys>(std::move(primary),
                                                               std::move(others));
    return out;
  }
  if (store::IsPostgresUrl(config.db_url)) {
    return Fail(ErrorKind::kIllegalArgument,
                "PostgreSQL needs a key-encryption key to seal the token signing keys: set "
                "kek-file (FIRN_KEK_FILE) or FIRN_KEK, the same on every instance; "
                "`firn admin generate-kek` makes one (docs/auth.md)");
  }
  FIRN_ASSIGN_OR_RETURN(std::string db_path, SqlitePathOfUrl(config.db_url));
  out.default_file = DefaultKekPath(db_path);
  if (out.default_file.empty()) {
    return Fail(ErrorKind::kIllegalArgument,
                "No default key-encryption key location for a database in the root directory; "
                "set kek-file (FIRN_KEK_FILE) or FIRN_KEK");
  }
  const fs::path file = out.default_file;
  const fs::path staged = out.default_file + std::string(kStagedSuffix);
  std::error_code ec;
  if (fs::exists(staged, ec)) {  // a KEK rotation was under way
    FIRN_ASSIGN_OR_RETURN(auto next, KekFromFile(staged));
    others.push_back(std::move(next));
  }
  if (!fs::exists(file, ec)) {
    FIRN_ASSIGN_OR_RETURN(std::string sealed_with, AnySealedWith(store));
    if (!sealed_with.empty()) {
      return Fail(ErrorKind::kIllegalArgument,
                  "The stored signing keys are sealed with key-encryption key " + sealed_with +
                      ", but no KEK is configured and " + file.string() +
                      " does not exist. Restore that file or set kek-file (FIRN_KEK_FILE) to "
                      "the KEK this database was sealed with; a new KEK would not open them");
    }
    if (!may_generate) {
      return Fail(ErrorKind::kIllegalArgument,
                  "No key-encryption key: " + file.string() +
                      " does not exist and kek-file (FIRN_KEK_FILE) is not set");
    }
    Status written = WritePrivateFile(file, auth::KeyEncryptionKey::GenerateText().Reveal() + "\n");
    // Lost a race with another process starting on the same database: use its file.
    if (!written && written.error().kind != ErrorKind::kAlreadyExists) {
      return std::unexpected(written.error());
    }
    out.generated = written.has_value();
  } else {
    FIRN_RETURN_IF_ERROR(TightenToOwnerOnly(file, "key-encryption key file"));
  }
  FIRN_ASSIGN_OR_RETURN(auto primary, KekFromFile(file));
  if (out.generated) {
    spdlog::warn(R"x("msg":"generated a key-encryption key for the signing keys; back it up apart from the database (a backup of one without the other cannot mint tokens, and cannot be restored either)","file":"{}","kek_id":"{}")x",
                 log::Escape(file.string()), primary.id());
  }
  out.keks = std::make_shared<const auth::KeyEncryptionKeys>(std::move(primary),
                                                             std::move(others));
  return out;
}

Result<std::shared_ptr<const auth::KeyEncryptionKeys>> PrepareKeyEncryption(
    store::AccessStore& store, const ServerConfig& config) {
  FIRN_ASSIGN_OR_RETURN(ResolvedKeks resolved, ResolveKeks(store, config, true));
  FIRN_ASSIGN_OR_RETURN(access::SealResult sealed,
                        access::SealSigningKeys(store, *resolved.keks,
                                                access::SealMode::kPlaintextOnly, NowMillis()));
  if (sealed.sealed > 0) {
    spdlog::warn(R"x("msg":"sealed signing keys an earlier version stored in the clear; older backups and dumps still hold them in the clear (rotate the signing keys to retire them)","keys":{},"kek_id":"{}")x",
                 sealed.sealed, resolved.keks->primary().id());
    ScrubSqlite(config);
  }
  spdlog::info(R"("msg":"signing keys sealed at rest","kek_id":"{}","kek":"{}")",
               resolved.keks->primary().id(),
               log::Escape(resolved.default_file.empty() ? "configured" : resolved.default_file));
  return resolved.keks;
}

Result<KekRotation> RotateKek(store::AccessStore& store, const ServerConfig& config,
                              std::optional<Secret> next, store::EventStore* event_store) {
  FIRN_ASSIGN_OR_RETURN(ResolvedKeks current, ResolveKeks(store, config, false));
  KekRotation out;
  out.previous_id = current.keks->primary().id();
  out.default_file = current.default_file;
  fs::path staged;
  Secret next_text;
  std::error_code ec;
  if (!current.default_file.empty()) {
    staged = current.default_file + std::string(kStagedSuffix);
    if (fs::exists(staged, ec)) {  // resume an interrupted rotation
      FIRN_ASSIGN_OR_RETURN(next_text, ReadSecretFile(staged.string()));
      if (next && next->Reveal() != next_text.Reveal()) {
        return Fail(ErrorKind::kIllegalArgument,
                    "Another KEK rotation is staged in " + staged.string() +
                        "; finish it first (rotate-kek without --new-kek-file) or remove it");
      }
    } else {
      next_text = next ? std::move(*next) : auth::KeyEncryptionKey::GenerateText();
      FIRN_RETURN_IF_ERROR(KekFrom(next_text, "new KEK"));  // refuse before staging
      FIRN_RETURN_IF_ERROR(WritePrivateFile(staged, next_text.Reveal() + "\n"));
    }
  } else {
    if (!next) {
      return Fail(ErrorKind::kIllegalArgument,
                  "--new-kek-file is required when the KEK is configured (kek-file / FIRN_KEK)");
    }
    next_text = std::move(*next);
  }
  FIRN_ASSIGN_OR_RETURN(auto next_kek, KekFrom(next_text, "new KEK"));
  if (next_kek.id() == out.previous_id) {
    return Fail(ErrorKind::kIllegalArgument, "The new KEK is the current one");
  }
  out.next_id = next_kek.id();
  std::vector<auth::KeyEncryptionKey> openers;
  for (const auto& id : current.keks->ids()) openers.push_back(*current.keks->Find(id));
  const auth::KeyEncryptionKeys all(std::move(next_kek), std::move(openers));
  FIRN_ASSIGN_OR_RETURN(access::SealResult sealed,
                        access::SealSigningKeys(store, all, access::SealMode::kAll, NowMillis()));
  out.resealed = sealed.resealed;
  out.sealed = sealed.sealed;
  if (event_store) {
    // Before the new KEK replaces the old one's file: a rerun after a crash finds the old one.
    FIRN_ASSIGN_OR_RETURN(auto sinks, event_store->ListEventSinks(""));
    for (const store::EventSink& sink : sinks) {
      if (sink.secret.empty()) continue;
      FIRN_ASSIGN_OR_RETURN(std::string resealed,
                            events::ResealSinkSecret(all, sink.realm, sink.name, sink.secret));
      if (resealed == sink.secret) continue;
      FIRN_RETURN_IF_ERROR(
          event_store->ReplaceEventSinkSecret(sink.realm, sink.name, sink.secret, resealed));
      ++out.resealed_sink_secrets;
    }
  }
  if (!staged.empty()) FIRN_RETURN_IF_ERROR(ReplaceFileDurably(staged, current.default_file));
  ScrubSqlite(config);
  return out;
}

}  // namespace firn::app
