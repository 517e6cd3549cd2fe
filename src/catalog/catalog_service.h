// CatalogService: the Iceberg REST operations, one method per operationId.
//
// This is where the rules live: existence checks, the commit protocol (docs/commit-protocol.md),
// location defaults and purge. Handlers in rest/ decode requests and call exactly one method.
// Thread-safety: all methods are safe to call concurrently; the service holds no per-request
// state. Errors follow common/error.h kinds with Iceberg-worded messages.
// Ownership: shares the store and object store with the caller (shared_ptr).
#pragma once

#include <boost/json/value.hpp>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "catalog/catalog_registry.h"
#include "catalog/metadata_cache.h"
#include "catalog/request_context.h"
#include "common/result.h"
#include "io/object_store.h"
#include "metadata/table_requirement.h"
#include "metadata/table_update.h"
#include "metadata/view_metadata.h"
#include "metadata/view_requirement.h"
#include "metadata/view_update.h"
#include "store/store.h"

namespace firn::catalog {

using store::Identifier;
using store::Namespace;
using store::Properties;

struct CreateTableRequest {
  std::string name;
  std::optional<std::string> location;
  boost::json::value schema;
  std::optional<boost::json::value> partition_spec;
  std::optional<boost::json::value> write_order;
  bool stage_create = false;
  Properties properties;
};

struct TableChange {
  Identifier id;
  std::vector<metadata::TableRequirement> requirements;
  std::vector<metadata::TableUpdate> updates;
};

// A loaded table version. `metadata_location` is empty for a staged (not yet created) table.
struct LoadedTable {
  std::string metadata_location;
  std::shared_ptr<const CachedTable> table;
};

struct CreateViewRequest {
  std::string name;
  std::optional<std::string> location;
  boost::json::value schema;
  boost::json::value view_version;
  Properties properties;
};

struct ViewChange {
  Identifier id;
  std::vector<metadata::ViewRequirement> requirements;
  std::vector<metadata::ViewUpdate> updates;
};

// A loaded view version; metadata files are immutable, so the pointer may be shared freely.
struct LoadedView {
  std::string metadata_location;
  std::shared_ptr<const metadata::ViewMetadata> metadata;
};

struct CommitOptions {
  int max_attempts = 8;           // server-side retries after a lost compare-and-swap
  int base_backoff_ms = 2;        // doubled per attempt, with jitter
};

class CatalogService {
 public:
  CatalogService(std::shared_ptr<store::CatalogStore> store,
                 std::shared_ptr<io::ObjectStore> objects, CatalogRegistry catalogs,
                 CommitOptions commit_options = {});

  const CatalogRegistry& catalogs() const { return catalogs_; }

  // Namespaces.
  Result<Properties> CreateNamespace(const RequestContext& ctx, const Namespace& ns,
                                     const Properties& props);
  Result<Properties> LoadNamespaceMetadata(const RequestContext& ctx, const Namespace& ns);
  Status NamespaceExists(const RequestContext& ctx, const Namespace& ns);
  Result<store::Page<Namespace>> ListNamespaces(const RequestContext& ctx, const Namespace& parent,
                                                const store::PageRequest& page);
  Status DropNamespace(const RequestContext& ctx, const Namespace& ns);
  Result<store::PropertiesUpdateResult> UpdateProperties(const RequestContext& ctx,
                                                         const Namespace& ns,
                                                         const std::vector<std::string>& removals,
                                                         const Properties& updates);

  // Tables.
  Result<store::Page<std::string>> ListTables(const RequestContext& ctx, const Namespace& ns,
                                              const store::PageRequest& page);
  Result<LoadedTable> CreateTable(const RequestContext& ctx, const Namespace& ns,
                                  const CreateTableRequest& request);
  Result<LoadedTable> LoadTable(const RequestContext& ctx, const Identifier& id);
  Status TableExists(const RequestContext& ctx, const Identifier& id);
  // kNotFound ("Failed to open input stream for file: …") if the table's current metadata
  // file has disappeared from the object store.
  Status CheckMetadataFileExists(const LoadedTable& table);
  Result<LoadedTable> UpdateTable(const RequestContext& ctx, const TableChange& change);
  Status DropTable(const RequestContext& ctx, const Identifier& id, bool purge);
  Status RenameTable(const RequestContext& ctx, const Identifier& from, const Identifier& to);
  Result<LoadedTable> RegisterTable(const RequestContext& ctx, const Identifier& id,
                                    const std::string& metadata_location, bool overwrite);
  Status ReportMetrics(const RequestContext& ctx, const Identifier& id,
                       const std::string& report_type, std::string report_json);
  // All tables or none; validated before any pointer moves.
  Status CommitTransaction(const RequestContext& ctx, const std::vector<TableChange>& changes);

  // Views (view_operations.cc). Tables and views share one name space per namespace; a view
  // name that holds a table is kNoSuchView. View metadata files default to gzip.
  Result<store::Page<std::string>> ListViews(const RequestContext& ctx, const Namespace& ns,
                                             const store::PageRequest& page);
  Result<LoadedView> CreateView(const RequestContext& ctx, const Namespace& ns,
                                const CreateViewRequest& request);
  Result<LoadedView> LoadView(const RequestContext& ctx, const Identifier& id);
  Status ViewExists(const RequestContext& ctx, const Identifier& id);
  // The commit protocol with server-side retry, as UpdateTable; no change writes no file.
  Result<LoadedView> ReplaceView(const RequestContext& ctx, const ViewChange& change);
  // Deletes the current metadata file too, unless the view has gc.enabled=false.
  Status DropView(const RequestContext& ctx, const Identifier& id);
  Status RenameView(const RequestContext& ctx, const Identifier& from, const Identifier& to);
  // Reads (never rewrites) the file at `metadata_location`; kAlreadyExists if the name is used.
  Result<LoadedView> RegisterView(const RequestContext& ctx, const Identifier& id,
                                  const std::string& metadata_location);

 private:
  struct PreparedCommit;

  Result<std::shared_ptr<const CachedTable>> ReadMetadata(const std::string& location);
  // One attempt: check requirements on the current base, apply, write the new file.
  Result<PreparedCommit> PrepareCommit(const RequestContext& ctx, const TableChange& change);
  // The commit protocol with retries, after authorisation (UpdateTable / CommitTransaction).
  Result<LoadedTable> CommitTable(const RequestContext& ctx, const TableChange& change);
  Status CommitTables(const RequestContext& ctx, const std::vector<TableChange>& changes);
  Properties WithDefaultLocation(const RequestContext& ctx, const Namespace& ns,
                                 Properties props) const;
  std::string DefaultTableLocation(const RequestContext& ctx, const Identifier& id,
                                   const Properties& ns_props) const;
  void DeleteQuietly(const std::string& location);
  Result<std::shared_ptr<const metadata::ViewMetadata>> ReadViewMetadata(
      const std::string& location);
  // One view commit attempt: check requirements on the current base, apply, write the file.
  struct PreparedViewCommit;
  Result<PreparedViewCommit> PrepareViewCommit(const RequestContext& ctx,
                                               const ViewChange& change);
  void Backoff(int attempt) const;

  std::shared_ptr<store::CatalogStore> store_;
  std::shared_ptr<io::ObjectStore> objects_;
  CatalogRegistry catalogs_;
  CommitOptions commit_options_;
  MetadataCache cache_;
};

}  // namespace firn::catalog
