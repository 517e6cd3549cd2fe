// CredentialVendor against a scripted STS on loopback: which profile a catalog vends with,
// what one AssumeRole asks for, the cache (hits, renewal at half-life, what an STS outage
// leaves usable) and every reason a catalog cannot vend.
#include <gtest/gtest.h>

#include <string>

#include "catalog/credential_vending.h"
#include "common/clock.h"
#include "support/scripted_server.h"

namespace firn::catalog {
namespace {

using io::s3::DataAccess;
using io::s3::testing::Response;
using io::s3::testing::ScriptedServer;

std::string Iso(int64_t ms) {
  time_t seconds = ms / 1000;
  std::tm tm{};
  gmtime_r(&seconds, &tm);
  char buffer[32];
  std::strftime(buffer, sizeof(buffer), "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buffer;
}

std::string Assumed(const std::string& key, int64_t expires_ms) {
  return Response(200, "OK",
                  "<AssumeRoleResponse><AssumeRoleResult><Credentials><AccessKeyId>" + key +
                      "</AccessKeyId><SecretAccessKey>s-" + key +
                      "</SecretAccessKey><SessionToken>t-" + key +
                      "</SessionToken><Expiration>" + Iso(expires_ms) +
                      "</Expiration></Credentials></AssumeRoleResult></AssumeRoleResponse>");
}

VendingSettings Settings(const ScriptedServer& sts) {
  VendingSettings s;
  s.server.endpoint = "http://127.0.0.1:" + std::to_string(sts.port());
  s.server.access_key_id = "server-key";
  s.server.secret_access_key = Secret("server-secret");
  s.server.max_attempts = 1;
  s.role_arn = "arn:aws:iam::123456789012:role/vend";
  s.client_endpoint = "http://clients.example:9000";
  s.duration = std::chrono::seconds(3600);
  return s;
}

CatalogInfo S3Catalog() {
  CatalogInfo c;
  c.name = "lake";
  c.base_location = "s3://wh/lake";
  c.storage_type = "S3";
  return c;
}

const std::vector<std::string> kTable = {"s3://wh/lake/db/t"};

TEST(CredentialVendorTest, OneAssumeRoleConfinedToTheTableAndNamedAfterThePrincipal) {
  const int64_t expires = NowMillis() + 3600'000;
  ScriptedServer sts({Assumed("K1", expires)});
  CredentialVendor vendor(Settings(sts));
  auto vended = vendor.Vend(S3Catalog(), kTable, DataAccess::kRead, "alice smith");
  ASSERT_TRUE(vended) << vended.error().message;
  EXPECT_EQ((*vended)->prefix, "s3://wh/lake/db/t");
  EXPECT_EQ((*vended)->config.at("s3.access-key-id"), "K1");
  EXPECT_EQ((*vended)->config.at("s3.secret-access-key"), "s-K1");
  EXPECT_EQ((*vended)->config.at("s3.session-token"), "t-K1");
  EXPECT_EQ((*vended)->config.at("s3.session-token-expires-at-ms"),
            std::to_string(expires / 1000 * 1000));
  ASSERT_EQ(sts.requests().size(), 1u);
  const std::string sent = sts.requests()[0];
  EXPECT_NE(sent.find("RoleSessionName=firn-alice_smith"), std::string::npos) << sent;
  EXPECT_NE(sent.find("arn%3Aaws%3As3%3A%3A%3Awh%2Flake%2Fdb%2Ft%2F%2A"), std::string::npos);
  EXPECT_EQ(sent.find("PutObject"), std::string::npos) << "read-only asked for no writes";
  EXPECT_EQ(sent.find("server-secret"), std::string::npos);
}

TEST(CredentialVendorTest, TheCacheServesUntilHalfLifeAndKeysByAccessAndPrincipal) {
  const int64_t long_lived = NowMillis() + 3600'000;
  ScriptedServer sts({Assumed("K1", long_lived), Assumed("K2", long_lived),
                      Assumed("K3", long_lived)});
  CredentialVendor vendor(Settings(sts));
  auto first = vendor.Vend(S3Catalog(), kTable, DataAccess::kRead, "alice");
  auto again = vendor.Vend(S3Catalog(), kTable, DataAccess::kRead, "alice");
  ASSERT_TRUE(first && again);
  EXPECT_EQ(first->get(), again->get());
  EXPECT_EQ(vendor.stats().sts_calls, 1u);
  EXPECT_EQ(vendor.stats().hits, 1u);
  auto writer = vendor.Vend(S3Catalog(), kTable, DataAccess::kReadWrite, "alice");
  auto bob = vendor.Vend(S3Catalog(), kTable, DataAccess::kRead, "bob");
  ASSERT_TRUE(writer && bob);
  EXPECT_EQ((*writer)->config.at("s3.access-key-id"), "K2");
  EXPECT_EQ((*bob)->config.at("s3.access-key-id"), "K3");
  EXPECT_EQ(vendor.stats().sts_calls, 3u);
}

TEST(CredentialVendorTest, PastHalfLifeItRenewsAndAnOutageServesWhatIsStillValid) {
  // 20 minutes left of a 1 h lifetime: past half-life, still valid.
  const int64_t aging = NowMillis() + 20 * 60'000;
  ScriptedServer sts({Assumed("OLD", aging), Response(503, "Unavailable")});
  CredentialVendor vendor(Settings(sts));
  ASSERT_TRUE(vendor.Vend(S3Catalog(), kTable, DataAccess::kRead, "alice"));
  auto during_outage = vendor.Vend(S3Catalog(), kTable, DataAccess::kRead, "alice");
  ASSERT_TRUE(during_outage) << during_outage.error().message;
  EXPECT_EQ((*during_outage)->config.at("s3.access-key-id"), "OLD");
  EXPECT_EQ(vendor.stats().sts_calls, 2u) << "a renewal was attempted";
  EXPECT_EQ(vendor.stats().stale_served, 1u);
  // Nothing cached for another table: the outage is the answer.
  auto other = vendor.Vend(S3Catalog(), {"s3://wh/lake/db/u"}, DataAccess::kRead, "alice");
  ASSERT_FALSE(other);
  EXPECT_EQ(other.error().kind, ErrorKind::kServiceUnavailable);
  EXPECT_EQ(other.error().message,
            "Cannot vend storage credentials: the storage token service is unavailable");
}

TEST(CredentialVendorTest, CatalogsThatCannotVendSaySoWithoutCallingSts) {
  ScriptedServer sts({Assumed("K", NowMillis() + 3600'000)});
  CredentialVendor vendor(Settings(sts));
  CatalogInfo file;
  file.name = "local";
  file.base_location = "file:///wh/local";
  CatalogInfo no_sts = S3Catalog();
  no_sts.storage.sts_unavailable = true;
  for (const CatalogInfo& c : {file, no_sts}) {
    auto got = vendor.Vend(c, kTable, DataAccess::kRead, "alice");
    ASSERT_FALSE(got) << c.name;
    EXPECT_EQ(got.error().kind, ErrorKind::kUnsupportedOperation) << got.error().message;
  }
  VendingSettings no_role = Settings(sts);
  no_role.role_arn.clear();
  CredentialVendor roleless(no_role);
  EXPECT_EQ(roleless.Vend(S3Catalog(), kTable, DataAccess::kRead, "a").error().kind,
            ErrorKind::kUnsupportedOperation);
  EXPECT_EQ(vendor.Vend(S3Catalog(), {"s3://wh/lake/db/t*"}, DataAccess::kRead, "a")
                .error()
                .kind,
            ErrorKind::kUnsupportedOperation);
  EXPECT_TRUE(sts.requests().empty());
}

// A profile's storageName picks the server-side keys that call STS; a name this server does
// not configure is an error of the server's setup, and STS is not called with other keys.
TEST(CredentialVendorTest, AProfileNamingAKeySetCallsStsWithThoseKeys) {
  ScriptedServer sts({Assumed("K", NowMillis() + 3600'000)});
  VendingSettings settings = Settings(sts);
  settings.key_sets["tenant"] = io::s3::Credentials{"tenant-key", Secret("tenant-secret"), {}};
  CredentialVendor vendor(settings);
  CatalogInfo named = S3Catalog();
  named.storage.storage_name = "tenant";
  ASSERT_TRUE(vendor.Vend(named, kTable, DataAccess::kRead, "alice"));
  ASSERT_EQ(sts.requests().size(), 1u);
  EXPECT_NE(sts.requests()[0].find("Credential=tenant-key/"), std::string::npos)
      << sts.requests()[0];
  EXPECT_EQ(sts.requests()[0].find("server-key"), std::string::npos);

  CatalogInfo unknown = S3Catalog();
  unknown.storage.storage_name = "absent";
  auto refused = vendor.Vend(unknown, kTable, DataAccess::kRead, "alice");
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().kind, ErrorKind::kInternal);
  EXPECT_EQ(refused.error().message, "The storage of catalog 'lake' is not configured here");
  EXPECT_EQ(sts.requests().size(), 1u);
}

TEST(CredentialVendorTest, ServerConnectionTakesTheProfilesEndpointRegionStyleAndKeys) {
  ScriptedServer sts({});
  VendingSettings settings = Settings(sts);
  settings.server.region = "us-east-1";
  settings.key_sets["tenant"] = io::s3::Credentials{"tenant-key", Secret("tenant-secret"), {}};
  CredentialVendor vendor(settings);
  CatalogInfo plain = S3Catalog();
  EXPECT_FALSE(CredentialVendor::HasOwnConnection(plain));
  auto same = vendor.ServerConnection(plain);
  ASSERT_TRUE(same);
  EXPECT_EQ(same->endpoint, settings.server.endpoint);
  EXPECT_EQ(same->access_key_id, "server-key");

  CatalogInfo own = S3Catalog();
  own.storage.endpoint = "http://clients.example:9000";
  own.storage.endpoint_internal = "http://10.0.0.5:8333";
  own.storage.region = "eu-west-3";
  own.storage.storage_name = "tenant";
  EXPECT_TRUE(CredentialVendor::HasOwnConnection(own));
  auto conn = vendor.ServerConnection(own);
  ASSERT_TRUE(conn);
  EXPECT_EQ(conn->endpoint, "http://10.0.0.5:8333") << "the server uses endpointInternal";
  EXPECT_EQ(conn->region, "eu-west-3");
  EXPECT_EQ(conn->access_key_id, "tenant-key");
  EXPECT_EQ(conn->secret_access_key.Reveal(), "tenant-secret");
  // Clients are told the public endpoint, never the internal one.
  EXPECT_EQ(vendor.ClientConfig(own).at("s3.endpoint"), "http://clients.example:9000");
  // Without endpointInternal the server uses the profile's endpoint too.
  own.storage.endpoint_internal.clear();
  EXPECT_EQ(vendor.ServerConnection(own)->endpoint, "http://clients.example:9000");
}

TEST(CredentialVendorTest, AStoreThatRefusesSessionPoliciesCannotVend) {
  ScriptedServer sts({Response(
      400, "Bad Request",
      "<ErrorResponse><Error><Code>MalformedPolicyDocument</Code></Error></ErrorResponse>")});
  CredentialVendor vendor(Settings(sts));
  auto got = vendor.Vend(S3Catalog(), kTable, DataAccess::kRead, "alice");
  ASSERT_FALSE(got);
  EXPECT_EQ(got.error().kind, ErrorKind::kUnsupportedOperation);
}

TEST(CredentialVendorTest, ClientConfigUsesTheProfileThenTheServer) {
  ScriptedServer sts({Response(500, "unused")});
  CredentialVendor vendor(Settings(sts));
  auto config = vendor.ClientConfig(S3Catalog());
  EXPECT_EQ(config.at("s3.endpoint"), "http://clients.example:9000");
  EXPECT_EQ(config.at("s3.path-style-access"), "false");
  EXPECT_EQ(config.at("s3.region"), "us-east-1");
  EXPECT_EQ(config.at("client.region"), "us-east-1");
  CatalogInfo own = S3Catalog();
  own.storage.endpoint = "https://s3.eu.example";
  own.storage.region = "eu-west-1";
  own.storage.path_style_access = true;
  config = vendor.ClientConfig(own);
  EXPECT_EQ(config.at("s3.endpoint"), "https://s3.eu.example");
  EXPECT_EQ(config.at("s3.path-style-access"), "true");
  EXPECT_EQ(config.at("client.region"), "eu-west-1");
  CatalogInfo file;
  file.base_location = "file:///wh";
  EXPECT_TRUE(vendor.ClientConfig(file).empty());
  // An s3:// catalog recorded as FILE by an earlier version is still on S3.
  CatalogInfo old = S3Catalog();
  old.storage_type = "FILE";
  EXPECT_FALSE(vendor.ClientConfig(old).empty());
}

TEST(CredentialVendorTest, SessionNamesFitSts) {
  EXPECT_EQ(SessionNameFor("alice"), "firn-alice");
  EXPECT_EQ(SessionNameFor("a b/c"), "firn-a_b_c");
  EXPECT_EQ(SessionNameFor(std::string(100, 'x')).size(), 64u);
}

}  // namespace
}  // namespace firn::catalog
