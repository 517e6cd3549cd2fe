#include "rest/openapi_schemas.h"

#include <boost/json/parse.hpp>

#include <string_view>

namespace firn::rest {
namespace {

// Written from Firn's handlers: what each request body must carry (the fields a handler
// refuses to do without are `required`), and what each answer always contains. Objects stay
// open (extra members are ignored on input and may be added on output).
constexpr std::string_view kComponents = R"json({
"securitySchemes": {
  "bearer": {"type": "http", "scheme": "bearer",
             "description": "An access token from POST /v1/oauth/tokens, or from a configured OIDC issuer"}
},
"responses": {
  "ClientError": {"description": "The request was refused; the body says why",
                  "content": {"application/json": {"schema": {"$ref": "#/components/schemas/IcebergErrorResponse"}}}},
  "ServerError": {"description": "The server could not answer (overloaded, storage unavailable)",
                  "content": {"application/json": {"schema": {"$ref": "#/components/schemas/IcebergErrorResponse"}}}}
},
"parameters": {
  "prefix": {"name": "prefix", "in": "path", "required": true, "schema": {"type": "string"},
             "description": "The catalog name (the prefix /v1/config hands out)"},
  "namespace": {"name": "namespace", "in": "path", "required": true, "schema": {"type": "string"},
                "description": "Namespace levels, each form-encoded, joined by %1F"},
  "table": {"name": "table", "in": "path", "required": true, "schema": {"type": "string"}},
  "view": {"name": "view", "in": "path", "required": true, "schema": {"type": "string"}},
  "catalogName": {"name": "catalogName", "in": "path", "required": true, "schema": {"type": "string"}},
  "dropId": {"name": "dropId", "in": "path", "required": true, "schema": {"type": "string"}},
  "principalName": {"name": "principalName", "in": "path", "required": true, "schema": {"type": "string"}},
  "sinkName": {"name": "sinkName", "in": "path", "required": true, "schema": {"type": "string"}},
  "principalRoleName": {"name": "principalRoleName", "in": "path", "required": true, "schema": {"type": "string"}},
  "catalogRoleName": {"name": "catalogRoleName", "in": "path", "required": true, "schema": {"type": "string"}},
  "warehouse": {"name": "warehouse", "in": "query", "schema": {"type": "string"},
                "description": "A catalog name; the answer's overrides then carry it as prefix"},
  "pageToken": {"name": "pageToken", "in": "query", "schema": {"type": "string"},
                "description": "Empty to ask for paging; else the next-page-token of the previous page"},
  "pageSize": {"name": "pageSize", "in": "query", "schema": {"type": "integer", "minimum": 1}},
  "parent": {"name": "parent", "in": "query", "schema": {"type": "string"},
             "description": "Parent namespace, levels joined by the 0x1F byte"},
  "snapshots": {"name": "snapshots", "in": "query", "schema": {"type": "string", "enum": ["all", "refs"]}},
  "purgeRequested": {"name": "purgeRequested", "in": "query", "schema": {"type": "boolean"}},
  "planId": {"name": "planId", "in": "query", "schema": {"type": "string"}},
  "accessDelegation": {"name": "X-Iceberg-Access-Delegation", "in": "header", "schema": {"type": "string"},
    "description": "vended-credentials and/or remote-signing, comma-separated"},
  "cascade": {"name": "cascade", "in": "query", "schema": {"type": "boolean"}},
  "ifNoneMatch": {"name": "If-None-Match", "in": "header", "schema": {"type": "string"},
                  "description": "ETags of a previous load; a match answers 304"},
  "idempotencyKey": {"name": "Idempotency-Key", "in": "header", "schema": {"type": "string"},
                     "description": "A client-chosen key: a retry with the same key replays the first answer"},
  "auditCatalog": {"name": "catalog", "in": "query", "schema": {"type": "string"}},
  "auditPrincipal": {"name": "principal", "in": "query", "schema": {"type": "string"}},
  "auditOperation": {"name": "operation", "in": "query", "schema": {"type": "string"}},
  "auditObjectPrefix": {"name": "objectPrefix", "in": "query", "schema": {"type": "string"}},
  "auditOutcome": {"name": "outcome", "in": "query", "description": "success, fenced, or the error kind of a refused change (e.g. CommitFailed, Forbidden)", "schema": {"type": "string"}},
  "auditSince": {"name": "since", "in": "query", "schema": {"type": "integer", "format": "int64"}},
  "auditUntil": {"name": "until", "in": "query", "schema": {"type": "integer", "format": "int64"}},
  "auditAfterId": {"name": "afterId", "in": "query", "schema": {"type": "integer", "format": "int64"}},
  "auditLimit": {"name": "limit", "in": "query", "schema": {"type": "integer"}},
  "taskState": {"name": "state", "in": "query",
                "schema": {"type": "string", "enum": ["pending", "running", "done", "failed"]}},
  "taskKind": {"name": "kind", "in": "query", "schema": {"type": "string"}},
  "taskLimit": {"name": "limit", "in": "query",
                "schema": {"type": "integer", "minimum": 1, "maximum": 1000}},
  "reportType": {"name": "type", "in": "query",
                 "schema": {"type": "string", "enum": ["scan-report", "commit-report"]}},
  "eventAfter": {"name": "after", "in": "query", "description": "An event id from the feed (events after it), 0 or absent for the start, or latest",
                 "schema": {"type": "string"}},
  "eventCatalog": {"name": "catalog", "in": "query", "schema": {"type": "string"}}
},
"schemas": {
  "ErrorModel": {"type": "object", "required": ["message", "type", "code"], "properties": {
    "message": {"type": "string"}, "type": {"type": "string", "description": "Exception class name, e.g. NoSuchTableException"},
    "code": {"type": "integer", "minimum": 400, "maximum": 599},
    "stack": {"type": "array", "items": {"type": "string"}}}},
  "IcebergErrorResponse": {"type": "object", "required": ["error"], "properties": {
    "error": {"$ref": "#/components/schemas/ErrorModel"}}},
  "OAuthError": {"type": "object", "required": ["error"], "properties": {
    "error": {"type": "string", "description": "invalid_request, invalid_client, invalid_grant, unauthorized_client, unsupported_grant_type, invalid_scope"},
    "error_description": {"type": "string"}}},
  "OpenApiDocument": {"type": "object", "required": ["openapi", "info", "paths"]},
  "Properties": {"type": "object", "additionalProperties": {"type": "string"}},
  "Namespace": {"type": "array", "items": {"type": "string"}, "description": "Namespace levels, outermost first"},
  "PageToken": {"type": "string", "nullable": true, "description": "Absent or null on the last page"},
  "TableIdentifier": {"type": "object", "required": ["namespace", "name"], "properties": {
    "namespace": {"$ref": "#/components/schemas/Namespace"}, "name": {"type": "string"}}},
  "CatalogConfig": {"type": "object", "required": ["defaults", "overrides"], "properties": {
    "defaults": {"$ref": "#/components/schemas/Properties"},
    "overrides": {"$ref": "#/components/schemas/Properties"},
    "endpoints": {"type": "array", "items": {"type": "string"}, "description": "\"<METHOD> <path>\" of every catalog route served"},
    "idempotency-key-lifetime": {"type": "string", "description": "ISO-8601 duration"}}},
  "OAuthTokenRequest": {"type": "object", "required": ["grant_type"], "properties": {
    "grant_type": {"type": "string", "description": "client_credentials or urn:ietf:params:oauth:grant-type:token-exchange"},
    "client_id": {"type": "string"}, "client_secret": {"type": "string"}, "scope": {"type": "string"},
    "subject_token": {"type": "string"}, "subject_token_type": {"type": "string"},
    "actor_token": {"type": "string"}, "actor_token_type": {"type": "string"},
    "requested_token_type": {"type": "string"}}},
  "OAuthTokenResponse": {"type": "object", "required": ["access_token", "token_type"], "properties": {
    "access_token": {"type": "string"}, "token_type": {"type": "string"},
    "expires_in": {"type": "integer"}, "issued_token_type": {"type": "string"},
    "scope": {"type": "string"}, "refresh_token": {"type": "string"}}},
  "CreateNamespaceRequest": {"type": "object", "required": ["namespace"], "properties": {
    "namespace": {"$ref": "#/components/schemas/Namespace"},
    "properties": {"$ref": "#/components/schemas/Properties"}}},
  "CreateNamespaceResponse": {"type": "object", "required": ["namespace"], "properties": {
    "namespace": {"$ref": "#/components/schemas/Namespace"},
    "properties": {"$ref": "#/components/schemas/Properties"}}},
  "GetNamespaceResponse": {"type": "object", "required": ["namespace"], "properties": {
    "namespace": {"$ref": "#/components/schemas/Namespace"},
    "properties": {"$ref": "#/components/schemas/Properties"}}},
  "ListNamespacesResponse": {"type": "object", "required": ["namespaces"], "properties": {
    "next-page-token": {"$ref": "#/components/schemas/PageToken"},
    "namespaces": {"type": "array", "items": {"$ref": "#/components/schemas/Namespace"}}}},
  "UpdateNamespacePropertiesRequest": {"type": "object", "properties": {
    "removals": {"type": "array", "items": {"type": "string"}},
    "updates": {"$ref": "#/components/schemas/Properties"}}},
  "UpdateNamespacePropertiesResponse": {"type": "object", "required": ["updated", "removed"], "properties": {
    "updated": {"type": "array", "items": {"type": "string"}},
    "removed": {"type": "array", "items": {"type": "string"}},
    "missing": {"type": "array", "items": {"type": "string"}, "nullable": true}}},
  "ListTablesResponse": {"type": "object", "required": ["identifiers"], "properties": {
    "next-page-token": {"$ref": "#/components/schemas/PageToken"},
    "identifiers": {"type": "array", "items": {"$ref": "#/components/schemas/TableIdentifier"}}}},
  "Schema": {"type": "object", "required": ["type", "fields"], "properties": {
    "type": {"type": "string", "enum": ["struct"]}, "schema-id": {"type": "integer"},
    "identifier-field-ids": {"type": "array", "items": {"type": "integer"}},
    "fields": {"type": "array", "items": {"$ref": "#/components/schemas/StructField"}}}},
  "StructField": {"type": "object", "required": ["id", "name", "type", "required"], "properties": {
    "id": {"type": "integer"}, "name": {"type": "string"}, "required": {"type": "boolean"},
    "type": {"description": "A primitive type name (\"long\", \"decimal(9,2)\", ...) or a struct/list/map object"},
    "doc": {"type": "string"}}},
  "PartitionSpec": {"type": "object", "required": ["fields"], "properties": {
    "spec-id": {"type": "integer"},
    "fields": {"type": "array", "items": {"type": "object", "required": ["source-id", "transform", "name"], "properties": {
      "source-id": {"type": "integer"}, "field-id": {"type": "integer"},
      "transform": {"type": "string"}, "name": {"type": "string"}}}}}},
  "SortOrder": {"type": "object", "required": ["order-id", "fields"], "properties": {
    "order-id": {"type": "integer"},
    "fields": {"type": "array", "items": {"type": "object", "required": ["source-id", "transform", "direction", "null-order"], "properties": {
      "source-id": {"type": "integer"}, "transform": {"type": "string"},
      "direction": {"type": "string", "enum": ["asc", "desc"]},
      "null-order": {"type": "string", "enum": ["nulls-first", "nulls-last"]}}}}}},
  "TableMetadata": {"type": "object", "required": ["format-version", "table-uuid"], "properties": {
    "format-version": {"type": "integer", "minimum": 1, "maximum": 3},
    "table-uuid": {"type": "string"}, "location": {"type": "string"},
    "last-updated-ms": {"type": "integer", "format": "int64"},
    "properties": {"$ref": "#/components/schemas/Properties"},
    "schemas": {"type": "array", "items": {"$ref": "#/components/schemas/Schema"}},
    "current-schema-id": {"type": "integer"},
    "snapshots": {"type": "array", "items": {"type": "object"}},
    "refs": {"type": "object"}}},
  "LoadTableResult": {"type": "object", "required": ["metadata"], "properties": {
    "metadata-location": {"type": "string", "nullable": true, "description": "null for a staged create"},
    "metadata": {"$ref": "#/components/schemas/TableMetadata"},
    "config": {"$ref": "#/components/schemas/Properties"},
    "storage-credentials": {"type": "array", "items": {"$ref": "#/components/schemas/StorageCredential"}}}},
  "StorageCredential": {"type": "object", "required": ["prefix", "config"], "properties": {
    "prefix": {"type": "string"}, "config": {"$ref": "#/components/schemas/Properties"}}},
  "RemoteSignRequest": {"type": "object", "required": ["region", "uri", "method", "headers"], "properties": {
    "region": {"type": "string"}, "uri": {"type": "string"},
    "method": {"type": "string", "enum": ["PUT", "GET", "HEAD", "POST", "DELETE", "PATCH", "OPTIONS"]},
    "headers": {"type": "object", "additionalProperties": {"type": "array", "items": {"type": "string"}}},
    "properties": {"$ref": "#/components/schemas/Properties"},
    "body": {"type": "string"}, "provider": {"type": "string"}}},
  "RemoteSignResult": {"type": "object", "required": ["uri", "headers"], "properties": {
    "uri": {"type": "string"},
    "headers": {"type": "object", "additionalProperties": {"type": "array", "items": {"type": "string"}}}}},
  "LoadCredentialsResponse": {"type": "object", "required": ["storage-credentials"], "properties": {
    "storage-credentials": {"type": "array", "items": {"$ref": "#/components/schemas/StorageCredential"}}}},
  "CommitTableResponse": {"type": "object", "required": ["metadata-location", "metadata"], "properties": {
    "metadata-location": {"type": "string"},
    "metadata": {"$ref": "#/components/schemas/TableMetadata"}}},
  "CreateTableRequest": {"type": "object", "required": ["name", "schema"], "properties": {
    "name": {"type": "string", "minLength": 1}, "location": {"type": "string"},
    "schema": {"$ref": "#/components/schemas/Schema"},
    "partition-spec": {"$ref": "#/components/schemas/PartitionSpec"},
    "write-order": {"$ref": "#/components/schemas/SortOrder"},
    "stage-create": {"type": "boolean"},
    "properties": {"$ref": "#/components/schemas/Properties"}}},
  "RegisterTableRequest": {"type": "object", "required": ["name", "metadata-location"], "properties": {
    "name": {"type": "string"}, "metadata-location": {"type": "string"}, "overwrite": {"type": "boolean"}}},
  "TableRequirement": {"type": "object", "required": ["type"], "properties": {
    "type": {"type": "string", "enum": ["assert-create", "assert-table-uuid", "assert-ref-snapshot-id",
      "assert-last-assigned-field-id", "assert-current-schema-id", "assert-last-assigned-partition-id",
      "assert-default-spec-id", "assert-default-sort-order-id"]}}},
  "TableUpdate": {"type": "object", "required": ["action"], "properties": {
    "action": {"type": "string", "enum": ["assign-uuid", "upgrade-format-version", "add-schema",
      "set-current-schema", "add-spec", "set-default-spec", "add-sort-order", "set-default-sort-order",
      "add-snapshot", "set-snapshot-ref", "remove-snapshots", "remove-snapshot-ref", "set-location",
      "set-properties", "remove-properties", "set-statistics", "remove-statistics",
      "set-partition-statistics", "remove-partition-statistics", "remove-partition-specs",
      "remove-schemas", "add-encryption-key", "remove-encryption-key"]}}},
  "CommitTableRequest": {"type": "object", "required": ["requirements", "updates"], "properties": {
    "identifier": {"$ref": "#/components/schemas/TableIdentifier"},
    "requirements": {"type": "array", "items": {"$ref": "#/components/schemas/TableRequirement"}},
    "updates": {"type": "array", "items": {"$ref": "#/components/schemas/TableUpdate"}}}},
  "CommitTransactionRequest": {"type": "object", "required": ["table-changes"], "properties": {
    "table-changes": {"type": "array", "items": {"$ref": "#/components/schemas/CommitTableRequest"}}}},
  "RenameTableRequest": {"type": "object", "required": ["source", "destination"], "properties": {
    "source": {"$ref": "#/components/schemas/TableIdentifier"},
    "destination": {"$ref": "#/components/schemas/TableIdentifier"}}},
  "ReportMetricsRequest": {"type": "object", "required": ["report-type"], "properties": {
    "report-type": {"type": "string", "enum": ["scan-report", "commit-report"]},
    "table-name": {"type": "string"}, "snapshot-id": {"type": "integer", "format": "int64"}}},
  "ViewVersion": {"type": "object", "required": ["version-id", "timestamp-ms", "schema-id", "summary", "representations", "default-namespace"], "properties": {
    "version-id": {"type": "integer"}, "timestamp-ms": {"type": "integer", "format": "int64"},
    "schema-id": {"type": "integer"}, "summary": {"$ref": "#/components/schemas/Properties"},
    "representations": {"type": "array", "items": {"type": "object", "required": ["type"], "properties": {
      "type": {"type": "string"}, "sql": {"type": "string"}, "dialect": {"type": "string"}}}},
    "default-catalog": {"type": "string"},
    "default-namespace": {"$ref": "#/components/schemas/Namespace"}}},
  "ViewMetadata": {"type": "object", "required": ["view-uuid", "format-version", "location", "current-version-id", "versions", "version-log", "schemas"], "properties": {
    "view-uuid": {"type": "string"}, "format-version": {"type": "integer"},
    "location": {"type": "string"}, "current-version-id": {"type": "integer"},
    "versions": {"type": "array", "items": {"$ref": "#/components/schemas/ViewVersion"}},
    "version-log": {"type": "array", "items": {"type": "object"}},
    "schemas": {"type": "array", "items": {"$ref": "#/components/schemas/Schema"}},
    "properties": {"$ref": "#/components/schemas/Properties"}}},
  "LoadViewResult": {"type": "object", "required": ["metadata-location", "metadata"], "properties": {
    "metadata-location": {"type": "string"},
    "metadata": {"$ref": "#/components/schemas/ViewMetadata"},
    "config": {"$ref": "#/components/schemas/Properties"}}},
  "CreateViewRequest": {"type": "object", "required": ["name", "schema", "view-version", "properties"], "properties": {
    "name": {"type": "string"}, "location": {"type": "string"},
    "schema": {"$ref": "#/components/schemas/Schema"},
    "view-version": {"$ref": "#/components/schemas/ViewVersion"},
    "properties": {"$ref": "#/components/schemas/Properties"}}},
  "ViewUpdate": {"type": "object", "required": ["action"], "properties": {
    "action": {"type": "string", "enum": ["assign-uuid", "upgrade-format-version", "add-schema",
      "set-location", "set-properties", "remove-properties", "add-view-version", "set-current-view-version"]}}},
  "CommitViewRequest": {"type": "object", "required": ["updates"], "properties": {
    "identifier": {"$ref": "#/components/schemas/TableIdentifier"},
    "requirements": {"type": "array", "items": {"type": "object", "required": ["type"], "properties": {
      "type": {"type": "string", "enum": ["assert-view-uuid"]}}}},
    "updates": {"type": "array", "items": {"$ref": "#/components/schemas/ViewUpdate"}}}},
  "RegisterViewRequest": {"type": "object", "required": ["name", "metadata-location"], "properties": {
    "name": {"type": "string"}, "metadata-location": {"type": "string"}}},

  "StorageConfigInfo": {"type": "object", "required": ["storageType"], "properties": {
    "storageType": {"type": "string", "enum": ["FILE", "S3", "GCS", "AZURE"]},
    "allowedLocations": {"type": "array", "items": {"type": "string"}}}},
  "Catalog": {"type": "object", "required": ["type", "name", "properties", "storageConfigInfo"], "properties": {
    "type": {"type": "string", "enum": ["INTERNAL", "EXTERNAL"]}, "name": {"type": "string"},
    "properties": {"type": "object", "required": ["default-base-location"], "additionalProperties": {"type": "string"},
                   "properties": {"default-base-location": {"type": "string"}}},
    "storageConfigInfo": {"$ref": "#/components/schemas/StorageConfigInfo"},
    "createTimestamp": {"type": "integer", "format": "int64"},
    "lastUpdateTimestamp": {"type": "integer", "format": "int64"},
    "entityVersion": {"type": "integer"}}},
  "Catalogs": {"type": "object", "required": ["catalogs"], "properties": {
    "catalogs": {"type": "array", "items": {"$ref": "#/components/schemas/Catalog"}}}},
  "CreateCatalogRequest": {"type": "object", "required": ["catalog"], "properties": {
    "catalog": {"$ref": "#/components/schemas/Catalog"}}},
  "UpdateCatalogRequest": {"type": "object", "properties": {
    "currentEntityVersion": {"type": "integer"},
    "properties": {"$ref": "#/components/schemas/Properties"},
    "storageConfigInfo": {"$ref": "#/components/schemas/StorageConfigInfo"}}},
  "Principal": {"type": "object", "required": ["name"], "properties": {
    "name": {"type": "string"}, "clientId": {"type": "string"},
    "properties": {"$ref": "#/components/schemas/Properties"},
    "createTimestamp": {"type": "integer", "format": "int64"},
    "lastUpdateTimestamp": {"type": "integer", "format": "int64"},
    "entityVersion": {"type": "integer"}}},
  "Principals": {"type": "object", "required": ["principals"], "properties": {
    "principals": {"type": "array", "items": {"$ref": "#/components/schemas/Principal"}}}},
  "CreatePrincipalRequest": {"type": "object", "required": ["principal"], "properties": {
    "principal": {"$ref": "#/components/schemas/Principal"},
    "credentialRotationRequired": {"type": "boolean"}}},
  "PrincipalWithCredentials": {"type": "object", "required": ["principal", "credentials"], "properties": {
    "principal": {"$ref": "#/components/schemas/Principal"},
    "credentials": {"type": "object", "required": ["clientId", "clientSecret"], "properties": {
      "clientId": {"type": "string"}, "clientSecret": {"type": "string"}}}}},
  "ResetPrincipalRequest": {"type": "object", "properties": {
    "clientId": {"type": "string"}, "clientSecret": {"type": "string"}}},
  "UpdatePropertiesRequest": {"type": "object", "required": ["currentEntityVersion", "properties"], "properties": {
    "currentEntityVersion": {"type": "integer"},
    "properties": {"$ref": "#/components/schemas/Properties"}}},
  "PrincipalRole": {"type": "object", "required": ["name"], "properties": {
    "name": {"type": "string"}, "federated": {"type": "boolean"},
    "properties": {"$ref": "#/components/schemas/Properties"},
    "createTimestamp": {"type": "integer", "format": "int64"},
    "lastUpdateTimestamp": {"type": "integer", "format": "int64"},
    "entityVersion": {"type": "integer"}}},
  "PrincipalRoles": {"type": "object", "required": ["roles"], "properties": {
    "roles": {"type": "array", "items": {"$ref": "#/components/schemas/PrincipalRole"}}}},
  "CreatePrincipalRoleRequest": {"type": "object", "required": ["principalRole"], "properties": {
    "principalRole": {"$ref": "#/components/schemas/PrincipalRole"}}},
  "GrantPrincipalRoleRequest": {"type": "object", "required": ["principalRole"], "properties": {
    "principalRole": {"$ref": "#/components/schemas/PrincipalRole"}}},
  "CatalogRole": {"type": "object", "required": ["name"], "properties": {
    "name": {"type": "string"}, "properties": {"$ref": "#/components/schemas/Properties"},
    "createTimestamp": {"type": "integer", "format": "int64"},
    "lastUpdateTimestamp": {"type": "integer", "format": "int64"},
    "entityVersion": {"type": "integer"}}},
  "CatalogRoles": {"type": "object", "required": ["roles"], "properties": {
    "roles": {"type": "array", "items": {"$ref": "#/components/schemas/CatalogRole"}}}},
  "CreateCatalogRoleRequest": {"type": "object", "required": ["catalogRole"], "properties": {
    "catalogRole": {"$ref": "#/components/schemas/CatalogRole"}}},
  "GrantCatalogRoleRequest": {"type": "object", "required": ["catalogRole"], "properties": {
    "catalogRole": {"$ref": "#/components/schemas/CatalogRole"}}},
  "GrantResource": {"type": "object", "required": ["type", "privilege"], "properties": {
    "type": {"type": "string", "enum": ["catalog", "namespace", "table", "view"]},
    "namespace": {"$ref": "#/components/schemas/Namespace"},
    "tableName": {"type": "string"}, "viewName": {"type": "string"},
    "privilege": {"type": "string"}}},
  "GrantResources": {"type": "object", "required": ["grants"], "properties": {
    "grants": {"type": "array", "items": {"$ref": "#/components/schemas/GrantResource"}}}},
  "AddGrantRequest": {"type": "object", "required": ["grant"], "properties": {
    "grant": {"$ref": "#/components/schemas/GrantResource"}}},
  "RevokeGrantRequest": {"type": "object", "required": ["grant"], "properties": {
    "grant": {"$ref": "#/components/schemas/GrantResource"}}},
  "AuditPage": {"type": "object", "required": ["entries", "next"], "properties": {
    "entries": {"type": "array", "items": {"type": "object"}},
    "next": {"type": "integer", "format": "int64", "nullable": true,
             "description": "afterId for the next page; null on the last"}}},
  "DroppedObject": {"type": "object",
    "required": ["id", "kind", "namespace", "name", "metadataLocation", "droppedAt", "expiresAt"],
    "properties": {"id": {"type": "string"}, "kind": {"type": "string", "enum": ["table", "view"]},
                   "namespace": {"type": "array", "items": {"type": "string"}},
                   "name": {"type": "string"}, "uuid": {"type": "string"},
                   "metadataLocation": {"type": "string"},
                   "droppedAt": {"type": "integer", "format": "int64"},
                   "expiresAt": {"type": "integer", "format": "int64"},
                   "purgeRequested": {"type": "boolean"}, "fenced": {"type": "boolean"}}},
  "DroppedObjects": {"type": "object", "required": ["droppedObjects"], "properties": {
    "droppedObjects": {"type": "array", "items": {"$ref": "#/components/schemas/DroppedObject"}},
    "nextPageToken": {"type": "string", "nullable": true}}},
  "UndropRequest": {"type": "object", "properties": {
    "target": {"type": "object", "required": ["namespace", "name"], "properties": {
      "namespace": {"type": "array", "items": {"type": "string"}}, "name": {"type": "string"}},
      "description": "Restore under this name instead of the old one"}}},
  "MaintenanceRequest": {"type": "object", "required": ["action"], "properties": {
    "action": {"type": "string", "enum": ["expire-snapshots", "remove-orphan-files"]},
    "dryRun": {"type": "boolean"},
    "olderThan": {"type": "string", "description": "A duration: seconds, or 30m, 12h, 3d"},
    "retainLast": {"type": "integer", "minimum": 1}}},
  "MaintenanceReport": {"type": "object", "required": ["action", "dryRun", "fileCount"],
    "properties": {"action": {"type": "string"}, "dryRun": {"type": "boolean"},
                   "expiredSnapshots": {"type": "array", "items": {"type": "integer", "format": "int64"}},
                   "files": {"type": "array", "items": {"type": "string"}},
                   "fileCount": {"type": "integer"}, "bytes": {"type": "integer"},
                   "deleted": {"type": "integer"}, "keptReferencedElsewhere": {"type": "integer"},
                   "finished": {"type": "boolean"}, "note": {"type": "string"}}},
  "MoveOutRequest": {"type": "object", "properties": {
    "toDeployment": {"type": "string", "description": "The target deployment's id; absent = any"},
    "to": {"type": "string", "description": "The target, in words (shown to refused writers)"}}},
  "MoveRequest": {"type": "object", "required": ["toCatalog"], "properties": {
    "toCatalog": {"type": "string", "description": "A catalog of this deployment and realm"},
    "toNamespace": {"type": "array", "items": {"type": "string"},
                    "description": "Absent = the same namespace (it must exist in the target)"},
    "toName": {"type": "string", "description": "Absent = the same name"}}},
  "MovedObject": {"type": "object", "required": ["kind", "from", "to", "metadataLocation"],
    "properties": {"kind": {"type": "string", "enum": ["table", "view"]},
      "from": {"type": "object", "properties": {"catalog": {"type": "string"},
        "namespace": {"type": "array", "items": {"type": "string"}}, "name": {"type": "string"}}},
      "to": {"type": "object", "properties": {"catalog": {"type": "string"},
        "namespace": {"type": "array", "items": {"type": "string"}}, "name": {"type": "string"}}},
      "metadataLocation": {"type": "string"}}},
  "TableClaim": {"type": "object", "required": ["deployment", "state"], "properties": {
    "deployment": {"type": "string"}, "state": {"type": "string", "enum": ["active", "moving"]},
    "movingTo": {"type": "string"}, "tableUuid": {"type": "string"},
    "location": {"type": "string"}}},
  "MetricsReportPage": {"type": "object", "required": ["reports", "next"], "properties": {
    "reports": {"type": "array", "items": {"type": "object",
      "required": ["id", "reportType", "receivedMs", "report"],
      "properties": {"id": {"type": "integer", "format": "int64"},
                     "reportType": {"type": "string"},
                     "receivedMs": {"type": "integer", "format": "int64"},
                     "report": {"type": "object"}}}},
    "next": {"type": "integer", "format": "int64", "nullable": true}}},
  "EventPage": {"type": "object", "required": ["events", "next"], "properties": {
    "events": {"type": "array", "items": {"type": "object", "description": "A CloudEvents 1.0 event (structured mode)",
      "required": ["specversion", "id", "source", "type", "time", "data"],
      "properties": {"specversion": {"type": "string"}, "id": {"type": "string"},
                     "source": {"type": "string"}, "type": {"type": "string"},
                     "subject": {"type": "string"}, "time": {"type": "string"},
                     "datacontenttype": {"type": "string"}, "firnrealm": {"type": "string"},
                     "firncatalog": {"type": "string"}, "data": {"type": "object"}}}},
    "next": {"type": "string"}}},
  "CreateEventSinkRequest": {"type": "object", "required": ["name", "url"], "additionalProperties": false,
    "properties": {"name": {"type": "string"}, "url": {"type": "string"},
                   "secret": {"type": "string", "minLength": 16, "maxLength": 1024},
                   "catalog": {"type": "string"},
                   "operations": {"type": "array", "items": {"type": "string"}},
                   "from": {"type": "string", "enum": ["now", "start"]}}},
  "EventSink": {"type": "object", "required": ["name", "url", "signed", "delivery"], "properties": {
    "name": {"type": "string"}, "url": {"type": "string"},
    "catalog": {"type": "string", "nullable": true},
    "operations": {"type": "array", "items": {"type": "string"}},
    "signed": {"type": "boolean"}, "created": {"type": "integer", "format": "int64"},
    "delivery": {"type": "object", "properties": {
      "deliveredThrough": {"type": "string", "nullable": true},
      "delivered": {"type": "integer", "format": "int64"},
      "failures": {"type": "integer", "format": "int64"},
      "lastError": {"type": "string", "nullable": true},
      "lastAttempt": {"type": "integer", "format": "int64", "nullable": true},
      "lastSuccess": {"type": "integer", "format": "int64", "nullable": true},
      "nextAttempt": {"type": "integer", "format": "int64"},
      "leasedBy": {"type": "string", "nullable": true}}}}},
  "EventSinkList": {"type": "object", "required": ["eventSinks"], "properties": {
    "eventSinks": {"type": "array", "items": {"$ref": "#/components/schemas/EventSink"}}}},
  "TaskList": {"type": "object", "required": ["tasks"], "properties": {
    "tasks": {"type": "array", "items": {"type": "object", "required": ["id", "kind", "state"],
      "properties": {"id": {"type": "string"}, "kind": {"type": "string"},
                     "catalog": {"type": "string"}, "object": {"type": "string"},
                     "state": {"type": "string"}, "attempts": {"type": "integer"},
                     "notBefore": {"type": "integer", "format": "int64"},
                     "leaseOwner": {"type": "string"},
                     "leaseUntil": {"type": "integer", "format": "int64"},
                     "progress": {"type": "object", "nullable": true},
                     "lastError": {"type": "string"},
                     "created": {"type": "integer", "format": "int64"},
                     "updated": {"type": "integer", "format": "int64"}}}}}}
}
})json";

}  // namespace

boost::json::object OpenApiComponents() {
  static const boost::json::object components = boost::json::parse(kComponents).as_object();
  return components;
}

}  // namespace firn::rest
