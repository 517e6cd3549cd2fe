#include "io/s3/s3_xml.h"

#include <charconv>
#include <utility>

#include "common/macros.h"

namespace firn::io::s3 {
namespace {

constexpr size_t kMaxDepth = 64;

std::unexpected<Error> Malformed(std::string detail) {
  return Fail(ErrorKind::kInternal, "Malformed response from object storage", std::move(detail));
}

bool IsNameEnd(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '/' || c == '>';
}

bool IsBlank(std::string_view text) {
  return text.find_first_not_of(" \t\r\n") == std::string_view::npos;
}

std::string_view LocalName(std::string_view name) {
  size_t colon = name.find(':');
  return colon == std::string_view::npos ? name : name.substr(colon + 1);
}

void AppendUtf8(uint32_t cp, std::string& out) {
  if (cp < 0x80) {
    out.push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

// Appends `raw` character data to `out`, expanding entity and character references.
Status DecodeText(std::string_view raw, std::string& out) {
  while (!raw.empty()) {
    size_t amp = raw.find('&');
    out.append(raw.substr(0, amp));
    if (amp == std::string_view::npos) break;
    size_t semi = raw.find(';', amp);
    if (semi == std::string_view::npos || semi - amp > 12) return Malformed("bad entity");
    std::string_view entity = raw.substr(amp + 1, semi - amp - 1);
    if (entity == "lt") {
      out.push_back('<');
    } else if (entity == "gt") {
      out.push_back('>');
    } else if (entity == "amp") {
      out.push_back('&');
    } else if (entity == "quot") {
      out.push_back('"');
    } else if (entity == "apos") {
      out.push_back('\'');
    } else if (entity.size() >= 2 && entity[0] == '#') {
      bool hex = entity[1] == 'x';
      std::string_view digits = entity.substr(hex ? 2 : 1);
      uint32_t cp = 0;
      auto [end, ec] =
          std::from_chars(digits.data(), digits.data() + digits.size(), cp, hex ? 16 : 10);
      if (digits.empty() || ec != std::errc() || end != digits.data() + digits.size() ||
          cp == 0 || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
        return Malformed("bad character reference");
      }
      AppendUtf8(cp, out);
    } else {
      return Malformed("unknown entity");
    }
    raw.remove_prefix(semi + 1);
  }
  return Ok();
}

}  // namespace

const XmlElement* XmlElement::Child(std::string_view child_name) const {
  for (const XmlElement& c : children) {
    if (c.name == child_name) return &c;
  }
  return nullptr;
}

std::string_view XmlElement::ChildText(std::string_view child_name) const {
  const XmlElement* c = Child(child_name);
  return c == nullptr ? std::string_view() : std::string_view(c->text);
}

Result<XmlElement> ParseXml(std::string_view xml) {
  std::vector<XmlElement> open;  // the path from the root to the current element
  XmlElement root;
  bool have_root = false;
  // A finished element belongs to the element still open above it, or is the root.
  auto finish = [&](XmlElement element) {
    if (open.empty()) {
      root = std::move(element);
      have_root = true;
    } else {
      open.back().children.push_back(std::move(element));
    }
  };
  size_t pos = 0;
  auto skip_past = [&](std::string_view terminator) -> bool {
    size_t end = xml.find(terminator, pos);
    if (end == std::string_view::npos) return false;
    pos = end + terminator.size();
    return true;
  };
  while (pos < xml.size()) {
    if (xml[pos] != '<') {
      size_t lt = xml.find('<', pos);
      std::string_view raw = xml.substr(pos, lt == std::string_view::npos ? xml.npos : lt - pos);
      pos = lt == std::string_view::npos ? xml.size() : lt;
      if (open.empty()) {
        if (!IsBlank(raw)) return Malformed("text outside the root element");
        continue;
      }
      FIRN_RETURN_IF_ERROR(DecodeText(raw, open.back().text));
      continue;
    }
    std::string_view rest = xml.substr(pos);
    if (rest.starts_with("<?")) {
      if (!skip_past("?>")) return Malformed("unterminated processing instruction");
    } else if (rest.starts_with("<!--")) {
      if (!skip_past("-->")) return Malformed("unterminated comment");
    } else if (rest.starts_with("<![CDATA[")) {
      if (open.empty()) return Malformed("CDATA outside the root element");
      size_t start = pos + 9;
      size_t end = xml.find("]]>", start);
      if (end == std::string_view::npos) return Malformed("unterminated CDATA");
      open.back().text.append(xml.substr(start, end - start));
      pos = end + 3;
    } else if (rest.starts_with("<!")) {
      return Malformed("DOCTYPE and declarations are not accepted");
    } else if (rest.starts_with("</")) {
      size_t gt = xml.find('>', pos);
      if (gt == std::string_view::npos) return Malformed("unterminated end tag");
      std::string_view name = xml.substr(pos + 2, gt - pos - 2);
      while (!name.empty() && IsBlank(name.substr(name.size() - 1))) name.remove_suffix(1);
      if (open.empty() || LocalName(name) != open.back().name) {
        return Malformed("mismatched end tag");
      }
      pos = gt + 1;
      XmlElement done = std::move(open.back());
      open.pop_back();
      finish(std::move(done));
    } else {
      // A start tag; attribute values may contain '>' inside quotes.
      size_t i = pos + 1;
      while (i < xml.size() && !IsNameEnd(xml[i])) ++i;
      std::string_view name = xml.substr(pos + 1, i - pos - 1);
      if (name.empty()) return Malformed("empty tag name");
      char quote = 0;
      while (i < xml.size() && (quote != 0 || xml[i] != '>')) {
        if (quote != 0 && xml[i] == quote) {
          quote = 0;
        } else if (quote == 0 && (xml[i] == '"' || xml[i] == '\'')) {
          quote = xml[i];
        }
        ++i;
      }
      if (i >= xml.size()) return Malformed("unterminated start tag");
      bool self_closing = xml[i - 1] == '/';
      pos = i + 1;
      if (have_root) return Malformed("more than one root element");
      XmlElement element;
      element.name = std::string(LocalName(name));
      if (self_closing) {
        finish(std::move(element));
      } else {
        if (open.size() >= kMaxDepth) return Malformed("nesting too deep");
        open.push_back(std::move(element));
      }
    }
  }
  if (!open.empty()) return Malformed("unclosed element <" + open.back().name + ">");
  if (!have_root) return Malformed("no root element");
  return root;
}

Result<ListPage> ParseListObjectsV2(std::string_view xml) {
  FIRN_ASSIGN_OR_RETURN(XmlElement root, ParseXml(xml));
  if (root.name != "ListBucketResult") return Malformed("expected <ListBucketResult>");
  ListPage page;
  for (const XmlElement& child : root.children) {
    if (child.name == "CommonPrefixes") {
      std::string_view prefix = child.ChildText("Prefix");
      if (prefix.empty()) return Malformed("<CommonPrefixes> without <Prefix>");
      page.common_prefixes.emplace_back(prefix);
      continue;
    }
    if (child.name != "Contents") continue;
    const XmlElement* key = child.Child("Key");
    if (key == nullptr || key->text.empty()) return Malformed("<Contents> without <Key>");
    ListedObject object;
    object.key = key->text;
    std::string_view size = child.ChildText("Size");
    if (!size.empty()) {
      auto [end, ec] = std::from_chars(size.data(), size.data() + size.size(), object.size);
      if (ec != std::errc() || end != size.data() + size.size() || object.size < 0) {
        return Malformed("bad <Size>");
      }
    }
    object.last_modified = std::string(child.ChildText("LastModified"));
    page.objects.push_back(std::move(object));
  }
  page.truncated = root.ChildText("IsTruncated") == "true";
  page.next_continuation_token = std::string(root.ChildText("NextContinuationToken"));
  if (page.truncated && page.next_continuation_token.empty()) {
    return Malformed("truncated listing without <NextContinuationToken>");
  }
  return page;
}

S3ErrorBody ParseS3Error(std::string_view xml) {
  auto root = ParseXml(xml);
  if (!root) return {};
  // STS and IAM wrap the same element: <ErrorResponse><Error>…</Error></ErrorResponse>.
  const XmlElement* error = root->name == "ErrorResponse" ? root->Child("Error") : &*root;
  if (error == nullptr || error->name != "Error") return {};
  return {std::string(error->ChildText("Code")), std::string(error->ChildText("Message"))};
}

}  // namespace firn::io::s3
