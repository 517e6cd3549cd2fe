// firn: one binary, several subcommands (serve, admin backup/copy-store; bootstrap, recover,
// verify and replicate arrive with their issues).
#include <CLI/CLI.hpp>

#include <iostream>
#include <map>
#include <string>

#include "app/admin_audit.h"
#include "app/admin_commands.h"
#include "app/admin_fences.h"
#include "app/admin_moves.h"
#include "app/admin_drill.h"
#include "app/admin_migrate.h"
#include "app/admin_recover.h"
#include "app/admin_replicate.h"
#include "app/admin_verify.h"
#include "app/admin_tasks.h"
#include "app/location_index.h"
#include "app/bootstrap_command.h"
#include "app/server_app.h"
#include "app/server_config.h"
#include "common/version.h"

int main(int argc, char** argv) {
  CLI::App app{"Firn: an Apache Iceberg REST catalog"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "firn " + std::string(firn::kFirnVersion));

  firn::app::ServerConfig config;
  std::string config_file;
  std::string data_dir, listen, db, warehouse, catalog_name, log_level;
  std::string s3_endpoint, s3_region, s3_access_key_id, s3_secret_file;
  auto* serve = app.add_subcommand("serve", "Serve the Iceberg REST catalog");
  serve->add_option("--config", config_file, "Config file (key = value lines)");
  serve->add_option("--data-dir", data_dir, "Data directory (default ./.firn)");
  serve->add_option("--listen", listen, "HOST:PORT to listen on (default 127.0.0.1:8181)");
  serve->add_option("--db", db, "Database URL: sqlite:///path (default <data-dir>/firn.db)");
  serve->add_option("--warehouse", warehouse,
                    "Default warehouse URI (default file://<data-dir>/warehouse)");
  serve->add_option("--catalog-name", catalog_name, "Name (REST prefix) of the default catalog");
  serve->add_option("--log-level", log_level, "debug | info | warn | error");
  serve->add_option("--s3-endpoint", s3_endpoint, "S3-compatible endpoint, http(s)://host:port");
  serve->add_option("--s3-region", s3_region, "S3 region (default us-east-1)");
  serve->add_option("--s3-access-key-id", s3_access_key_id, "S3 access key id");
  serve->add_option("--s3-secret-access-key-file", s3_secret_file,
                    "File holding the S3 secret key (or env FIRN_S3_SECRET_ACCESS_KEY)");

  // Identity settings (docs/auth.md), applied by name like the config file's keys.
  std::map<std::string, std::string> setting_flags;
  // One help line per flag; each is also a config-file key and a FIRN_* variable by its name
  // (docs/auth.md for identity, docs/limits.md, docs/vending.md, src/http/README.md).
  auto setting = [&](const char* name, const char* help) {
    serve->add_option(std::string("--") + name, setting_flags[name], help);
  };
  setting("auth", "on (default) | off: off allows every request without a token");
  setting("realm-header", "Header naming the realm of a request (default Polaris-Realm)");
  setting("default-realm", "Realm of requests without that header (default: default)");
  setting("token-lifetime", "Seconds an issued token stays valid (default 3600)");
  setting("bootstrap-admin", "Name of the admin principal made at first start (default admin)");
  setting("kek-file", "File holding the key-encryption key that seals the signing keys");
  setting("previous-kek-file", "The key-encryption key being rotated away from (firn admin "
          "rotate-kek)");
  setting("oidc-issuer", "Accept tokens of this OpenID Connect issuer (its iss claim)");
  setting("oidc-jwks-file", "The issuer's signing keys, from a JWKS file");
  setting("oidc-jwks-url", "The issuer's signing keys, fetched from this URL");
  setting("oidc-audience", "Required aud claim of external tokens");
  setting("oidc-subject-claim", "Claim naming the principal (default sub)");
  setting("oidc-roles-claim", "Claim listing the principal roles");
  setting("oidc-role-prefix", "Prefix stripped from role names in that claim");
  setting("oidc-realm", "Realm of external tokens (default: the default realm)");
  setting("ops-listen", "HOST:PORT of a separate listener for /health, /ready and /metrics "
          "(then not served on --listen; default: beside the API)");
  setting("event-sink-urls", "Comma-separated URL prefixes webhooks may point to (default: any "
          "http(s) URL; docs/events.md)");
  serve->add_option("--metrics", setting_flags["metrics"],
                    "on (default) | off: GET /metrics and request counting "
                    "(docs/operations.md)");
  serve->add_option("--metrics-report-retention", setting_flags["metrics-report-retention"],
                    "How long engines' metrics reports stay listable (default 7d; 0 = not "
                    "stored; docs/operations.md)");
  serve->add_option("--drop-retention", setting_flags["drop-retention"],
                    "How long dropped tables and views stay restorable (default 7d; 0 = off; "
                    "docs/soft-delete.md)");
  serve->add_option("--load-check-interval", setting_flags["load-check-interval"],
                    "How often a loaded table is checked for another catalog's commits, off the "
                    "request (default 5s; 0 = only commits check; docs/ownership-claims.md)");
  serve->add_option("--console", setting_flags["console"],
                    "Serve the web console at /ui: on (default) or off (docs/console.md)");
  // Input limits (docs/limits.md), applied by name as well.
  serve->add_option("--storage-roots", setting_flags["storage-roots"],
                    "Comma-separated locations catalogs may use (default: the warehouse; "
                    "docs/storage.md)");
  setting("max-property-key-bytes", "Longest property key accepted, in bytes");
  setting("max-property-value-bytes", "Longest property value accepted, in bytes");
  setting("max-properties-bytes", "Largest set of properties of one object, in bytes");
  setting("max-properties", "Most properties one object may have");
  setting("max-metadata-file-bytes", "Largest metadata file read or written (default 64 MiB)");
  setting("s3-role-arn", "Role vended credentials are assumed from (STS AssumeRole)");
  setting("s3-client-endpoint", "S3 endpoint given to clients (default: --s3-endpoint)");
  setting("s3-sts-endpoint", "STS endpoint (default: --s3-endpoint)");
  setting("s3-sts-unavailable", "true: the store has no STS; never vend, sign requests instead");
  setting("s3-path-style-access", "true: address buckets by path, not by host name");
  setting("vended-credentials-seconds", "Lifetime of vended credentials, 900..43200 "
          "(default 3600)");
  setting("vending-strict", "true: a table whose credentials cannot be vended is an error, "
          "not a table without credentials");
  setting("s3-key-sets", "Named S3 key sets catalogs may use (docs/vending.md)");
  setting("max-body-bytes", "Largest request body (default 16 MiB)");
  setting("max-connections", "Most open connections; one more is answered 503 (default 1024)");
  setting("max-inflight-body-bytes", "Request bodies in memory at once, all connections "
          "(default 256 MiB)");

  firn::app::BootstrapArgs bootstrap_args;
  auto* bootstrap = app.add_subcommand(
      "bootstrap", "Create a realm, its signing key and an admin principal; prints the "
                   "credentials once (idempotent)");
  bootstrap->add_option("--realm", bootstrap_args.realm, "Realm (default: default)");
  bootstrap->add_option("--admin", bootstrap_args.admin, "Admin principal name")->required();
  bootstrap->add_option("--db", bootstrap_args.store.db_url, "Database URL (as for serve)");
  bootstrap->add_option("--data-dir", bootstrap_args.store.data_dir, "Data directory");
  bootstrap->add_option("--password-file", bootstrap_args.store.password_file,
                        "PostgreSQL password file (else FIRN_DB_PASSWORD)");
  bootstrap->add_option("--catalog-name", bootstrap_args.store.catalog_name,
                        "Catalog to create with the realm (as for serve)");
  bootstrap->add_option("--warehouse", bootstrap_args.store.warehouse, "Its base location");
  bootstrap->add_flag("--no-catalog", bootstrap_args.no_catalog, "Create no catalog");
  // The key-encryption key options of every command that opens signing keys.
  auto add_kek_options = [](CLI::App* cmd, firn::app::StoreFlags& flags) {
    cmd->add_option("--kek-file", flags.kek_file,
                    "Key-encryption key file (else FIRN_KEK[_FILE]; SQLite default "
                    "<db dir>.kek; docs/auth.md)");
    cmd->add_option("--previous-kek-file", flags.previous_kek_file,
                    "A previous key-encryption key that still opens keys (KEK rotation)");
  };
  add_kek_options(bootstrap, bootstrap_args.store);

  // The database (and object store) flags of the commands that open a deployment's database
  // as `firn serve` does.
  auto add_db_options = [](CLI::App* cmd, firn::app::StoreFlags& flags) {
    cmd->add_option("--db", flags.db_url, "Database URL (as for serve)");
    cmd->add_option("--data-dir", flags.data_dir, "Data directory");
    cmd->add_option("--password-file", flags.password_file,
                    "PostgreSQL password file (else FIRN_DB_PASSWORD)");
    cmd->add_option("--warehouse", flags.warehouse, "Warehouse URI (as for serve)");
    cmd->add_option("--storage-roots", flags.storage_roots,
                    "Comma-separated locations catalogs may use (as for serve)");
    cmd->add_option("--config", flags.config_file, "Config file (key = value, as for serve)");
    cmd->add_option("--catalog-name", flags.catalog_name,
                    "The configured catalog's name (as for serve)");
  };

  firn::app::RecoverArgs recover_args;
  auto* recover = app.add_subcommand(
      "recover",
      "Rebuild a catalog from the object store: find every table under a prefix, choose each "
      "head by its metadata-log chain, register it (docs/recovery.md)");
  recover->add_option("--prefix", recover_args.prefix, "file:// or s3:// URI to search")
      ->required();
  recover->add_option("--catalog", recover_args.catalog,
                      "Target catalog (default: the configured one)");
  recover->add_option("--realm", recover_args.realm, "Realm (default: default)");
  recover->add_flag("--dry-run", recover_args.dry_run, "Print the plan; change nothing");
  recover->add_option("--threads", recover_args.threads, "Parallel listings and registers (8)");
  recover->add_option("--on-fork", recover_args.on_fork,
                      "report (default: register none of a fork) | latest (the latest "
                      "last-updated-ms)");
  recover->add_option("--pointers", recover_args.pointers,
                      "A pointer source settling forks: JSON lines naming metadata files, or "
                      "a Firn database URL (repeatable)");
  recover->add_option("--take-over-from", recover_args.take_over_from,
                      "A deployment id known to be gone: its claims are replaced (repeatable)");
  recover->add_option("--namespace", recover_args.ns,
                      "Namespace (a.b) for tables right under the prefix");
  recover->add_flag("--json", recover_args.json, "JSON lines even on a terminal");
  add_db_options(recover, recover_args.store);

  firn::app::VerifyArgs verify_args;
  auto* verify = app.add_subcommand(
      "verify",
      "Check tables whole (chain, every referenced file) and record or compare their history "
      "(docs/recovery.md)");
  verify->add_option("--catalog", verify_args.catalog, "Catalog (default: the configured one)");
  verify->add_option("--realm", verify_args.realm, "Realm (default: default)");
  verify->add_option("--namespace", verify_args.ns, "Only this namespace (a.b) and below");
  verify->add_option("--table", verify_args.table, "Only this table (ns.t)");
  verify->add_option("--prefix", verify_args.prefix,
                     "Verify the heads found on the store under this URI instead of the "
                     "catalog's pointers");
  verify->add_option("--record", verify_args.record, "Write one history record per table here");
  verify->add_option("--compare", verify_args.compare,
                     "Compare with records written by --record; name every difference");
  verify->add_option("--threads", verify_args.threads, "Tables verified at once (8)");
  verify->add_flag("--json", verify_args.json, "JSON lines even on a terminal");
  add_db_options(verify, verify_args.store);

  firn::app::ReplicateArgs replicate_args;
  auto* replicate = app.add_subcommand(
      "replicate",
      "Copy tables to another store or prefix, each table's files before its metadata, so the "
      "replica is always consistent (docs/recovery.md)");
  replicate->add_option("--from", replicate_args.from, "Source prefix URI")->required();
  replicate->add_option("--to", replicate_args.to, "Destination prefix URI")->required();
  replicate->add_option("--rewrite-prefix", replicate_args.rewrite,
                        "OLD=NEW: rewrite absolute paths inside metadata files, manifest lists "
                        "and manifests as they are copied");
  replicate->add_option("--threads", replicate_args.threads, "Objects copied at once (8)");
  replicate->add_flag("--json", replicate_args.json, "JSON lines even on a terminal");
  replicate->add_option("--to-s3-endpoint", replicate_args.to_s3_endpoint,
                        "The destination's S3 endpoint (default: the source's)");
  replicate->add_option("--to-s3-access-key-id", replicate_args.to_s3_access_key_id,
                        "The destination's access key id");
  replicate->add_option("--to-s3-secret-access-key-file",
                        replicate_args.to_s3_secret_access_key_file,
                        "A file holding the destination's secret access key");
  replicate->add_option("--to-s3-region", replicate_args.to_s3_region, "The destination's region");
  replicate->add_flag("--register", replicate_args.register_tables,
                      "Register every copied head into the replica catalog (warm standby)");
  replicate->add_option("--replica-data-dir", replicate_args.replica.data_dir,
                        "The replica catalog's data directory");
  replicate->add_option("--replica-db", replicate_args.replica.db_url,
                        "The replica catalog's database URL");
  replicate->add_option("--replica-warehouse", replicate_args.replica.warehouse,
                        "The replica catalog's warehouse (its storage root)");
  replicate->add_option("--replica-catalog", replicate_args.replica_catalog,
                        "The replica catalog (default: its configured one)");
  replicate->add_option("--realm", replicate_args.realm, "Realm of the replica catalog");
  replicate->add_flag("--unsafe-object-copy", replicate_args.object_copy)
      ->group("");  // drills only: the wrong order
  add_db_options(replicate, replicate_args.store);

  firn::app::DrillArgs drill_args;
  auto* drill = app.add_subcommand(
      "drill",
      "The recovery game day: record, lose, discover, choose, register, validate, time; then "
      "the wrong copy order under a live writer (docs/recovery.md)");
  drill->add_option("--namespace", drill_args.ns, "The namespace drilled (a.b)")->required();
  drill->add_option("--catalog", drill_args.catalog, "Catalog (default: the configured one)");
  drill->add_option("--realm", drill_args.realm, "Realm (default: default)");
  drill->add_option("--lose", drill_args.lose,
                    "scratch (default: rebuild into a scratch database, nothing touched) | "
                    "drop (drop the tables from the live catalog, purge=false, and rebuild)");
  drill->add_option("--replica", drill_args.replica, "Rebuild from this replica prefix");
  drill->add_option("--replica-warehouse", drill_args.replica_warehouse,
                    "The storage root the replica lies in");
  drill->add_option("--writer-cmd", drill_args.writer_cmd,
                    "A command that commits to the namespace, run between the wrong order's "
                    "data and metadata copies");
  drill->add_option("--workdir", drill_args.workdir, "Scratch space (default: a new temp dir)");
  drill->add_flag("--json", drill_args.json, "JSON lines (always, for now)");
  add_db_options(drill, drill_args.store);

  firn::app::MigrateArgs migrate_args;
  auto* migrate = app.add_subcommand(
      "migrate",
      "Register every table and view of another REST catalog into Firn, optionally releasing "
      "them there (register, then release; docs/recovery.md)");
  migrate->add_option("--from", migrate_args.from, "The other catalog's URI")->required();
  migrate->add_option("--source-warehouse", migrate_args.warehouse,
                      "The other catalog's ?warehouse= (optional)");
  migrate->add_option("--credential", migrate_args.credential,
                      "client-id:secret for its token endpoint (client credentials)");
  migrate->add_option("--token", migrate_args.token, "Or a bearer token");
  migrate->add_option("--scope", migrate_args.scope, "Token scope (default PRINCIPAL_ROLE:ALL)");
  migrate->add_option("--catalog", migrate_args.catalog, "Firn catalog (default: the configured one)");
  migrate->add_option("--realm", migrate_args.realm, "Realm (default: default)");
  migrate->add_flag("--release", migrate_args.release,
                    "Drop each registered object at the source (purgeRequested=false)");
  migrate->add_flag("--dry-run", migrate_args.dry_run, "List what would move; change nothing");
  migrate->add_flag("--json", migrate_args.json, "JSON lines even on a terminal");
  add_db_options(migrate, migrate_args.store);

  auto* admin = app.add_subcommand("admin", "Administer a catalog database");
  admin->require_subcommand(1);
  std::string backup_db, backup_to;
  auto* backup = admin->add_subcommand(
      "backup",
      "Online consistent copy of a SQLite catalog database (SQLite backup API); safe while "
      "firn serve commits. For PostgreSQL use pg_dump (docs/postgres.md)");
  backup->add_option("--db", backup_db, "Source database URL: sqlite:///path")->required();
  backup->add_option("--to", backup_to, "Path of the copy (must not exist)")->required();
  bool backup_json = false;
  backup->add_flag("--json", backup_json, "JSON even on a terminal");

  firn::app::CopyStoreArgs copy_args;
  auto* copy_store = admin->add_subcommand(
      "copy-store",
      "Copy every catalog (namespaces with properties, table and view pointers) from one "
      "database to another, e.g. SQLite to PostgreSQL. Metadata files are not moved");
  copy_store->add_option("--from", copy_args.from_url, "Source database URL")->required();
  copy_store->add_option("--to", copy_args.to_url, "Destination database URL")->required();
  copy_store->add_option("--from-password-file", copy_args.from_password_file,
                         "PostgreSQL password file for --from (else FIRN_DB_PASSWORD)");
  copy_store->add_option("--to-password-file", copy_args.to_password_file,
                         "PostgreSQL password file for --to (else FIRN_DB_PASSWORD)");
  copy_store->add_flag("--force", copy_args.force,
                       "Copy into a non-empty destination (replaces pointers it holds)");
  copy_store->add_flag("--json", copy_args.json, "JSON even on a terminal");

  firn::app::AuditArgs audit_args;
  auto* audit = admin->add_subcommand(
      "audit", "List audit rows (commits and management changes), newest first; JSON lines");
  audit->add_option("--db", audit_args.db_url, "Database URL")->required();
  audit->add_option("--password-file", audit_args.password_file,
                    "PostgreSQL password file (else FIRN_DB_PASSWORD)");
  audit->add_option("--realm", audit_args.realm, "Only this realm");
  audit->add_option("--catalog", audit_args.catalog, "Only this catalog");
  audit->add_option("--principal", audit_args.principal, "Only this principal");
  audit->add_option("--operation", audit_args.operation, "Only this operation, e.g. updateTable");
  audit->add_option("--outcome", audit_args.outcome,
                    "Only this outcome: success, fenced, or an error kind, e.g. CommitFailed");
  audit->add_option("--object-prefix", audit_args.object_prefix,
                    "Only objects starting with this text, e.g. 'table db.'");
  audit->add_option("--since", audit_args.since, "From this time (epoch ms or ISO-8601)");
  audit->add_option("--until", audit_args.until, "Before this time (epoch ms or ISO-8601)");
  audit->add_option("--limit", audit_args.limit, "At most this many rows (1..1000, default 100)");
  audit->add_option("--after-id", audit_args.after_id,
                    "Rows after this id, oldest first (paging forward)");
  audit->add_option("--format", audit_args.format, "json (default) | table");

  firn::app::RotateKeysArgs rotate_args;
  auto* rotate = admin->add_subcommand(
      "rotate-keys", "Make a new token signing key active; the old one verifies for --overlap");
  rotate->add_option("--realm", rotate_args.realm, "Realm (default: default)");
  rotate->add_option("--db", rotate_args.store.db_url, "Database URL (as for serve)");
  rotate->add_option("--data-dir", rotate_args.store.data_dir, "Data directory");
  rotate->add_option("--password-file", rotate_args.store.password_file,
                     "PostgreSQL password file (else FIRN_DB_PASSWORD)");
  rotate->add_option("--overlap", rotate_args.overlap_seconds,
                     "Seconds the previous key keeps verifying (default 3900)");
  add_kek_options(rotate, rotate_args.store);

  firn::app::RotateKekArgs rotate_kek_args;
  auto* rotate_kek = admin->add_subcommand(
      "rotate-kek",
      "Re-seal every signing key under a new key-encryption key (docs/auth.md has the steps)");
  rotate_kek->add_option("--db", rotate_kek_args.store.db_url, "Database URL (as for serve)");
  rotate_kek->add_option("--data-dir", rotate_kek_args.store.data_dir, "Data directory");
  rotate_kek->add_option("--password-file", rotate_kek_args.store.password_file,
                         "PostgreSQL password file (else FIRN_DB_PASSWORD)");
  add_kek_options(rotate_kek, rotate_kek_args.store);
  rotate_kek->add_option("--new-kek-file", rotate_kek_args.new_kek_file,
                         "The new KEK (required with a configured KEK; generated for the "
                         "SQLite default file)");

  std::string generate_kek_to;
  auto* generate_kek = admin->add_subcommand(
      "generate-kek", "Print a new key-encryption key, or write it to --to (mode 0600)");
  generate_kek->add_option("--to", generate_kek_to, "File to create (must not exist)");

  firn::app::LocationsArgs locations_args;
  auto* locations = admin->add_subcommand(
      "locations", "Report objects whose storage locations overlap (docs/storage.md); builds "
                   "the location index of an older database first");
  locations->add_option("--db", locations_args.store.db_url, "Database URL (as for serve)");
  locations->add_option("--data-dir", locations_args.store.data_dir, "Data directory");
  locations->add_option("--password-file", locations_args.store.password_file,
                        "PostgreSQL password file (else FIRN_DB_PASSWORD)");
  locations->add_flag("--rebuild", locations_args.rebuild,
                      "Re-read every table and view and rebuild the index (keeps new claims)");

  firn::app::FencesArgs fences_args;
  auto* fences = admin->add_subcommand(
      "fences", "List tables fenced against a foreign writer (docs/ownership-claims.md)");
  fences->add_option("--db", fences_args.store.db_url, "Database URL (as for serve)");
  fences->add_option("--data-dir", fences_args.store.data_dir, "Data directory");
  fences->add_option("--password-file", fences_args.store.password_file,
                     "PostgreSQL password file (else FIRN_DB_PASSWORD)");
  fences->add_flag("--scan", fences_args.scan,
                   "First list every table's metadata directory in full and fence tables "
                   "another catalog wrote to");
  firn::app::FenceArgs fence_args;
  auto* fence = admin->add_subcommand(
      "fence", "Resolve a fenced table: keep-ours, adopt (theirs, by chain) or release");
  fence->add_option("action", fence_args.action, "keep-ours | adopt | release")->required();
  fence->add_option("--table", fence_args.table, "The table, ns.table")->required();
  fence->add_option("--realm", fence_args.realm, "Realm (default: default)");
  fence->add_option("--catalog", fence_args.catalog, "Catalog (default: the configured one)");
  fence->add_option("--db", fence_args.store.db_url, "Database URL (as for serve)");
  fence->add_option("--data-dir", fence_args.store.data_dir, "Data directory");
  fence->add_option("--password-file", fence_args.store.password_file,
                    "PostgreSQL password file (else FIRN_DB_PASSWORD)");

  firn::app::MoveTableArgs move_args;
  auto* move_table = admin->add_subcommand(
      "move-table",
      "Move a table (or view) to another catalog of this deployment in one transaction "
      "(docs/moves.md)");
  move_table->add_option("--table", move_args.table, "The table, ns.table")->required();
  move_table->add_option("--to-catalog", move_args.to_catalog, "The target catalog")->required();
  move_table->add_option("--to", move_args.to, "ns.table in the target (default: the same)");
  move_table->add_option("--catalog", move_args.catalog, "Source catalog (default: the configured one)");
  move_table->add_option("--realm", move_args.realm, "Realm (default: default)");
  move_table->add_flag("--view", move_args.view, "Move a view, not a table");
  add_db_options(move_table, move_args.store);

  firn::app::TasksArgs tasks_args;
  auto* tasks = admin->add_subcommand(
      "tasks", "List durable tasks (purges, maintenance), newest first (docs/tasks.md)");
  tasks->add_option("--db", tasks_args.store.db_url, "Database URL (as for serve)");
  tasks->add_option("--data-dir", tasks_args.store.data_dir, "Data directory");
  tasks->add_option("--password-file", tasks_args.store.password_file,
                    "PostgreSQL password file (else FIRN_DB_PASSWORD)");
  tasks->add_option("--state", tasks_args.state, "pending | running | done | failed");
  tasks->add_option("--kind", tasks_args.kind, "e.g. purge-table");
  tasks->add_option("--realm", tasks_args.realm, "Realm (default: every realm)");
  tasks->add_option("--limit", tasks_args.limit, "1..1000 (default 100)");

  app.add_subcommand("version", "Print the version")->callback([] {
    std::cout << "firn " << firn::kFirnVersion << "\n";
  });

  CLI11_PARSE(app, argc, argv);

  if (serve->parsed()) {
    auto fail = [](const firn::Error& e) {
      std::cerr << "firn: " << e.message << "\n";
      return 2;
    };
    if (!config_file.empty()) {
      if (auto st = firn::app::ApplyConfigFile(config_file, config); !st) return fail(st.error());
    }
    if (auto st = firn::app::ApplyEnvironment(config); !st) return fail(st.error());
    auto set = [](std::string& field, const std::string& value) {
      if (!value.empty()) field = value;
    };
    set(config.data_dir, data_dir);
    set(config.listen, listen);
    set(config.db_url, db);
    set(config.warehouse, warehouse);
    set(config.catalog_name, catalog_name);
    set(config.log_level, log_level);
    set(config.s3_endpoint, s3_endpoint);
    set(config.s3_region, s3_region);
    set(config.s3_access_key_id, s3_access_key_id);
    if (!s3_secret_file.empty()) {
      if (auto st = firn::app::ApplySetting("s3_secret_access_key_file", s3_secret_file, config);
          !st) {
        return fail(st.error());
      }
    }
    for (const auto& [name, value] : setting_flags) {
      if (value.empty()) continue;
      if (auto st = firn::app::ApplySetting(name, value, config); !st) return fail(st.error());
    }
    return firn::app::RunServer(std::move(config));
  }
  if (bootstrap->parsed()) return firn::app::RunBootstrap(bootstrap_args);
  if (rotate->parsed()) return firn::app::RunRotateKeys(rotate_args);
  if (rotate_kek->parsed()) return firn::app::RunRotateKek(rotate_kek_args);
  if (generate_kek->parsed()) return firn::app::RunGenerateKek(generate_kek_to);
  if (backup->parsed()) return firn::app::RunAdminBackup(backup_db, backup_to, backup_json);
  if (copy_store->parsed()) return firn::app::RunAdminCopyStore(copy_args);
  if (audit->parsed()) return firn::app::RunAdminAudit(audit_args);
  if (locations->parsed()) return firn::app::RunAdminLocations(locations_args);
  if (fences->parsed()) return firn::app::RunAdminFences(fences_args);
  if (fence->parsed()) return firn::app::RunAdminFence(fence_args);
  if (move_table->parsed()) return firn::app::RunAdminMoveTable(move_args);
  if (recover->parsed()) return firn::app::RunRecover(recover_args);
  if (verify->parsed()) return firn::app::RunVerify(verify_args);
  if (replicate->parsed()) return firn::app::RunReplicate(replicate_args);
  if (drill->parsed()) return firn::app::RunDrill(drill_args);
  if (migrate->parsed()) return firn::app::RunMigrate(migrate_args);
  if (tasks->parsed()) return firn::app::RunAdminTasks(tasks_args);
  return 0;
}
