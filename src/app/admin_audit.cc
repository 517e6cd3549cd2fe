#include "app/admin_audit.h"

#include <boost/json/object.hpp>
#include <boost/json/serialize.hpp>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <vector>

#include "app/admin_commands.h"
#include "app/store_factory.h"
#include "common/macros.h"
#include "common/strings.h"

namespace firn::app {
namespace {

int Failed(const Error& e) { return ReportAdminFailure("firn admin audit", e); }

// Reads `width` digits at `pos` (advancing it); -1 when they are not all digits.
int Digits(std::string_view text, size_t& pos, size_t width) {
  if (pos + width > text.size()) return -1;
  int value = 0;
  for (size_t i = 0; i < width; ++i) {
    const char c = text[pos + i];
    if (c < '0' || c > '9') return -1;
    value = value * 10 + (c - '0');
  }
  pos += width;
  return value;
}

bool Expect(std::string_view text, size_t& pos, char c) {
  if (pos >= text.size() || text[pos] != c) return false;
  ++pos;
  return true;
}

std::string FormatTime(int64_t ms) {
  using namespace std::chrono;
  const sys_time<milliseconds> tp{milliseconds(ms)};
  const auto day = floor<days>(tp);
  const year_month_day ymd{day};
  const hh_mm_ss hms{tp - day};
  std::ostringstream out;
  out << std::setfill('0') << std::setw(4) << static_cast<int>(ymd.year()) << '-'
      << std::setw(2) << static_cast<unsigned>(ymd.month()) << '-' << std::setw(2)
      << static_cast<unsigned>(ymd.day()) << 'T' << std::setw(2) << hms.hours().count() << ':'
      << std::setw(2) << hms.minutes().count() << ':' << std::setw(2)
      << hms.seconds().count() << '.' << std::setw(3) << hms.subseconds().count() << 'Z';
  return out.str();
}

std::string JsonLine(const store::AuditEntry& e) {
  boost::json::object o;
  o["id"] = e.id;
  o["at_ms"] = e.at_ms;
  o["at"] = FormatTime(e.at_ms);
  o["realm"] = e.realm;
  o["catalog"] = e.catalog;
  o["principal"] = e.principal;
  o["client"] = e.client;
  o["request_id"] = e.request_id;
  o["operation"] = e.operation;
  o["object"] = e.object;
  o["old_location"] = e.old_location;
  o["new_location"] = e.new_location;
  o["outcome"] = e.outcome;
  o["detail"] = e.detail;
  return boost::json::serialize(o);
}

void PrintTable(const std::vector<store::AuditEntry>& rows) {
  const std::vector<std::string> header = {"ID",        "AT",        "REALM",  "CATALOG",
                                           "PRINCIPAL", "OPERATION", "OBJECT", "OUTCOME",
                                           "NEW LOCATION"};
  std::vector<std::vector<std::string>> cells;
  for (const auto& e : rows) {
    cells.push_back({std::to_string(e.id), FormatTime(e.at_ms), e.realm, e.catalog, e.principal,
                     e.operation, e.object, e.outcome, e.new_location});
  }
  std::vector<size_t> width(header.size());
  for (size_t c = 0; c < header.size(); ++c) {
    width[c] = header[c].size();
    for (const auto& row : cells) width[c] = std::max(width[c], row[c].size());
  }
  auto print = [&](const std::vector<std::string>& row) {
    std::string line;
    for (size_t c = 0; c < row.size(); ++c) {
      line += row[c];
      if (c + 1 < row.size()) line += std::string(width[c] - row[c].size() + 2, ' ');
    }
    std::cout << TrimEnd(line, " ") << "\n";
  };
  print(header);
  for (const auto& row : cells) print(row);
}

Result<store::AuditFilter> BuildFilter(const AuditArgs& args) {
  store::AuditFilter filter;
  auto set = [](std::optional<std::string>& field, const std::string& value) {
    if (!value.empty()) field = value;
  };
  set(filter.realm, args.realm);
  set(filter.catalog, args.catalog);
  set(filter.principal, args.principal);
  set(filter.operation, args.operation);
  set(filter.outcome, args.outcome);
  set(filter.object_prefix, args.object_prefix);
  if (!args.since.empty()) {
    FIRN_ASSIGN_OR_RETURN(filter.since_ms, ParseAuditTime(args.since));
  }
  if (!args.until.empty()) {
    FIRN_ASSIGN_OR_RETURN(filter.until_ms, ParseAuditTime(args.until));
  }
  filter.after_id = args.after_id;
  filter.limit = args.limit;
  if (args.format != "json" && args.format != "table") {
    return Fail(ErrorKind::kIllegalArgument, "--format must be json or table");
  }
  return filter;
}

}  // namespace

Result<int64_t> ParseAuditTime(const std::string& text) {
  auto invalid = [&] {
    return Fail(ErrorKind::kIllegalArgument,
                "Not a time: '" + text +
                    "' (use epoch milliseconds or ISO-8601, e.g. 2026-11-30T12:00:00Z)");
  };
  if (!text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
        return c >= '0' && c <= '9';
      })) {
    int64_t ms = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), ms);
    if (ec != std::errc() || end != text.data() + text.size()) return invalid();
    return ms;
  }
  std::string_view s = text;
  size_t pos = 0;
  const int y = Digits(s, pos, 4);
  if (y < 0 || !Expect(s, pos, '-')) return invalid();
  const int mo = Digits(s, pos, 2);
  if (mo < 0 || !Expect(s, pos, '-')) return invalid();
  const int d = Digits(s, pos, 2);
  if (d < 0) return invalid();
  using namespace std::chrono;
  const year_month_day ymd{year(y), month(static_cast<unsigned>(mo)),
                           day(static_cast<unsigned>(d))};
  if (!ymd.ok()) return invalid();
  int64_t ms = duration_cast<milliseconds>(sys_days(ymd).time_since_epoch()).count();
  if (pos == s.size()) return ms;
  if (!Expect(s, pos, 'T') && !Expect(s, pos, ' ')) return invalid();
  const int h = Digits(s, pos, 2);
  if (h < 0 || h > 23 || !Expect(s, pos, ':')) return invalid();
  const int mi = Digits(s, pos, 2);
  if (mi < 0 || mi > 59) return invalid();
  int sec = 0;
  int64_t frac_ms = 0;
  if (pos < s.size() && s[pos] == ':') {
    ++pos;
    sec = Digits(s, pos, 2);
    if (sec < 0 || sec > 60) return invalid();
    if (pos < s.size() && (s[pos] == '.' || s[pos] == ',')) {
      ++pos;
      int scale = 100;
      size_t digits = 0;
      while (pos < s.size() && s[pos] >= '0' && s[pos] <= '9') {
        if (scale > 0) frac_ms += (s[pos] - '0') * scale;
        scale /= 10;
        ++pos;
        ++digits;
      }
      if (digits == 0) return invalid();
    }
  }
  ms += ((h * 60 + mi) * 60 + sec) * 1000LL + frac_ms;
  if (pos == s.size()) return ms;  // no zone: UTC
  if (s[pos] == 'Z' || s[pos] == 'z') return pos + 1 == s.size() ? Result<int64_t>(ms) : invalid();
  const char sign = s[pos];
  if (sign != '+' && sign != '-') return invalid();
  ++pos;
  const int oh = Digits(s, pos, 2);
  if (oh < 0 || oh > 23) return invalid();
  if (pos < s.size() && s[pos] == ':') ++pos;
  const int om = Digits(s, pos, 2);
  if (om < 0 || om > 59 || pos != s.size()) return invalid();
  const int64_t offset = (oh * 60 + om) * 60'000LL;
  return sign == '+' ? ms - offset : ms + offset;
}

int RunAdminAudit(const AuditArgs& args) {
  auto filter = BuildFilter(args);
  if (!filter) return Failed(filter.error());
  auto password = ReadDbPassword(args.password_file);
  if (!password) return Failed(password.error());
  auto store = OpenStoreByUrl(args.db_url, *password);
  if (!store) return Failed(store.error());
  auto rows = (*store)->ListAudit(*filter);
  if (!rows) return Failed(rows.error());
  if (args.format == "table") {
    PrintTable(*rows);
  } else {
    for (const auto& row : *rows) std::cout << JsonLine(row) << "\n";
  }
  return 0;
}

}  // namespace firn::app
