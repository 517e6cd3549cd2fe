// StorageProfile: how a catalog's data is reached on an S3-compatible store, and how engines
// get access to it (docs/vending.md). Plain data, part of CatalogInfo; copied freely.
//
// It is the S3 part of Polaris's `storageConfigInfo` (AwsStorageConfigInfo): the role engines'
// credentials are assumed from, the region, the endpoint clients are told, the endpoints the
// server itself uses, path-style addressing and whether the store has STS at all. It never
// holds a key: the keys Firn uses to reach the store and call STS are server-side settings,
// named here by `storage_name` (empty: the server's default S3 keys), and never accepted or
// returned by the management API.
#pragma once

#include <string>

namespace firn::catalog {

struct StorageProfile {
  std::string role_arn;           // roleArn: what vended credentials are assumed from
  std::string external_id;        // externalId (AWS cross-account roles)
  std::string region;             // region; empty: the server's S3 region
  std::string endpoint;           // endpoint: what clients are given (s3.endpoint)
  std::string endpoint_internal;  // endpointInternal: what the server uses; empty: endpoint
  std::string sts_endpoint;       // stsEndpoint; empty: endpoint_internal, then endpoint
  bool path_style_access = false;  // pathStyleAccess
  bool sts_unavailable = false;    // stsUnavailable: the store has no STS; never vend
  std::string storage_name;        // storageName: the server-side key set; empty: default

  // The endpoint the server talks to / calls STS at (empty: the server's own S3 endpoint).
  const std::string& InternalEndpoint() const {
    return endpoint_internal.empty() ? endpoint : endpoint_internal;
  }
  const std::string& StsEndpoint() const {
    return sts_endpoint.empty() ? InternalEndpoint() : sts_endpoint;
  }
  friend bool operator==(const StorageProfile&, const StorageProfile&) = default;
};

}  // namespace firn::catalog
