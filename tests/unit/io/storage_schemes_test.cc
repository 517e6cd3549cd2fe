// The storage scheme registry. The routing store built from it is walked over every
// registered scheme in local_object_store_test.cc (local schemes) and s3_object_store_test.cc
// (S3 schemes), so a scheme added to the registry is covered there.
#include "io/storage_schemes.h"

#include <gtest/gtest.h>

#include <string>

#include "io/object_store.h"

namespace firn::io {
namespace {

TEST(StorageSchemesTest, UriSchemeIsRfc3986AsWritten) {
  EXPECT_EQ(UriScheme("s3://bucket/key"), "s3");
  EXPECT_EQ(UriScheme("S3A://bucket"), "S3A");
  EXPECT_EQ(UriScheme("file:/wh/t"), "file");
  EXPECT_EQ(UriScheme("a+b.c-d9:rest"), "a+b.c-d9");
  EXPECT_EQ(UriScheme("/wh/t"), "");
  EXPECT_EQ(UriScheme("db/t:x"), "");       // a ':' after a '/' is in the path
  EXPECT_EQ(UriScheme("1x://bucket/k"), "");  // a scheme starts with a letter
  EXPECT_EQ(UriScheme("noscheme"), "");
  EXPECT_EQ(UriScheme(":x"), "");
  EXPECT_EQ(UriScheme(""), "");
}

TEST(StorageSchemesTest, TheRegistryDeclaresEachSchemesMeaning) {
  const StorageScheme* s3a = FindStorageScheme("S3a");
  ASSERT_NE(s3a, nullptr);
  EXPECT_EQ(s3a->canonical, "s3");
  EXPECT_EQ(s3a->store, StoreKind::kS3);
  EXPECT_TRUE(s3a->needs_authority);
  ASSERT_NE(FindStorageScheme("s3n"), nullptr);
  EXPECT_EQ(FindStorageScheme("s3n")->canonical, "s3");
  const StorageScheme* file = FindStorageScheme("FILE");
  ASSERT_NE(file, nullptr);
  EXPECT_EQ(file->store, StoreKind::kLocal);
  EXPECT_FALSE(file->needs_authority);
  EXPECT_EQ(file->local_authority, "localhost");
  EXPECT_EQ(&BarePathScheme(), file);
  EXPECT_EQ(FindStorageScheme("gs"), nullptr);
  EXPECT_EQ(FindStorageScheme("s3x"), nullptr);

  EXPECT_EQ(StorageSchemeOf("/wh/t"), file);
  EXPECT_EQ(StorageSchemeOf("s3a://b/k"), s3a);
  EXPECT_EQ(StorageSchemeOf("hdfs://nn/x"), nullptr);
  EXPECT_EQ(StorageSchemeOf("wh/t"), nullptr);
  for (const StorageScheme& s : StorageSchemes()) {
    EXPECT_EQ(FindStorageScheme(s.name), &s) << s.name;
    EXPECT_NE(FindStorageScheme(s.canonical), nullptr) << s.name;
  }
}

TEST(StorageSchemesTest, SchemesNoStoreServesAreRefused) {
  auto store = MakeDefaultObjectStore();
  auto gs = store->Read("gs://bucket/key");
  ASSERT_FALSE(gs);
  EXPECT_EQ(gs.error().kind, ErrorKind::kIllegalArgument);
  EXPECT_EQ(gs.error().message, "Unsupported storage scheme: gs");
  auto relative = store->Read("wh/t");
  ASSERT_FALSE(relative);
  EXPECT_EQ(relative.error().message,
            "Storage location must be an absolute path or a URI: wh/t");
}

}  // namespace
}  // namespace firn::io
