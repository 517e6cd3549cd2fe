// Where a run's key-encryption keys (KEKs) come from, and what `firn serve`, `firn bootstrap`
// and the key admin commands do to the stored signing keys before using them (docs/auth.md,
// "Signing keys at rest").
//
// Sources, first match wins: kek / kek_file (FIRN_KEK, FIRN_KEK_FILE, --kek-file) for the
// primary; previous_kek / previous_kek_file only open. Without a configured KEK, PostgreSQL is
// refused (every instance must hold the same KEK, so only the operator can supply it) and a
// SQLite database at <dir>/<file> uses the default file DefaultKekPath names: <dir>.kek, a
// sibling of the directory holding the database (for the embedded default <data-dir>/firn.db,
// a sibling of the data directory — never inside it, so an archive of the data directory does
// not carry the KEK). The default file is generated (0600, complete when visible) only when no
// stored key is sealed yet; a database whose keys are sealed but whose KEK is missing or
// different is refused with a message naming the KEK ids, never met with a new key.
// A staged `<default>.next` (a KEK rotation in progress) is accepted for opening too.
//
// Thread-safety: run once per process at start (or by one admin command), before serving.
// Errors: kIllegalArgument for configuration problems (missing or wrong KEK, a KEK text that is
// too short); the store's and the file system's otherwise. No message carries key material.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "app/server_config.h"
#include "auth/key_encryption.h"
#include "common/result.h"
#include "store/event_store.h"
#include "store/access_store.h"

namespace firn::app {

// "<dir>.kek" for a SQLite database at <dir>/<file>; "" when <dir> is the root directory.
std::string DefaultKekPath(const std::string& sqlite_path);

struct ResolvedKeks {
  std::shared_ptr<const auth::KeyEncryptionKeys> keks;
  std::string default_file;  // the default KEK file in use; "" when the KEK is configured
  bool generated = false;    // default_file was created by this call
};

// The KEKs of this run for config.db_url, checked against the stored rows (see above).
// `may_generate` = false never creates the default file (KEK rotation).
Result<ResolvedKeks> ResolveKeks(store::AccessStore& store, const ServerConfig& config,
                                 bool may_generate);

// ResolveKeks, then access::SealSigningKeys(kPlaintextOnly): refuses when a stored key does not
// open, seals the keys an earlier version stored in the clear (logged) and, on SQLite, then
// truncates the WAL so no page image of the plaintext stays behind.
Result<std::shared_ptr<const auth::KeyEncryptionKeys>> PrepareKeyEncryption(
    store::AccessStore& store, const ServerConfig& config);

// KEK rotation: every stored key re-sealed under `next` (the current KEKs still open them).
// With the default file, `next` (or, when nullopt, a generated KEK) is staged at
// <default>.next first, then the rows are re-sealed, then <default>.next replaces <default>:
// a crash at any point leaves a state the next start (or a rerun) opens. With a configured KEK
// `next` is required; the operator then configures it on every instance. On SQLite the WAL is
// truncated afterwards.
struct KekRotation {
  std::string previous_id;
  std::string next_id;
  int64_t resealed = 0;
  int64_t sealed = 0;  // plaintext rows from an earlier version, sealed on the way
  int64_t resealed_sink_secrets = 0;  // webhooks' signing secrets (docs/events.md)
  std::string default_file;  // the default file now holding `next` ("" when configured)
};
// `event_store`, when given, also has its webhook sinks' secrets re-sealed with the new KEK.
Result<KekRotation> RotateKek(store::AccessStore& store, const ServerConfig& config,
                              std::optional<Secret> next,
                              store::EventStore* event_store = nullptr);

}  // namespace firn::app
