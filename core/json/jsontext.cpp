// SPDX-License-Identifier: Apache-2.0
#include "json/jsontext.h"

#include "json/jsonscan.h"
#include "json/textnorm.h"

#include <simdjson.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <new>
#include <vector>

namespace structscope {

using nlohmann::json;

namespace {

constexpr std::size_t kMaxMessageBytes = 240;

// nlohmann's messages start with "[json.exception.parse_error.101] parse error at line 1, column 5: ";
// we report the location ourselves, so keep only what follows.
std::string stripExceptionPrefix(const char* what)
{
    std::string_view text(what);
    const std::size_t head = text.find("parse error");
    if (head != std::string_view::npos) {
        const std::size_t colon = text.find(": ", head);
        if (colon != std::string_view::npos)
            text.remove_prefix(colon + 2);
    } else if (!text.empty() && text.front() == '[') {
        const std::size_t close = text.find("] ");
        if (close != std::string_view::npos)
            text.remove_prefix(close + 2);
    }
    // "last read: '...'" may quote raw input, which can be huge or invalid UTF-8.
    return truncateUtf8(escapeInvalidUtf8(text), kMaxMessageBytes);
}

// Builds the DOM like nlohmann's own SAX DOM parser, but with a nesting limit and without throwing.
// The parser itself is iterative (nlohmann 3.11 keeps its own state stack), so together with the
// limit neither parsing nor the caller's later recursive walks can overflow the C++ stack.
class LimitedDomBuilder
{
public:
    LimitedDomBuilder(json& root, int maxDepth)
        : m_root(root)
        , m_maxDepth(maxDepth)
    { }

    bool null() { return put(json(nullptr)) != nullptr; }
    bool boolean(bool v) { return put(json(v)) != nullptr; }
    bool number_integer(json::number_integer_t v) { return put(json(v)) != nullptr; }
    bool number_unsigned(json::number_unsigned_t v) { return put(json(v)) != nullptr; }
    bool number_float(json::number_float_t v, const json::string_t& /*text*/) { return put(json(v)) != nullptr; }
    // The lexer clears its token buffer before reading the next token, so moving out is safe.
    bool string(json::string_t& v) { return put(json(std::move(v))) != nullptr; }
    bool binary(json::binary_t& /*value*/) { return false; } // only binary formats (CBOR, …) emit this

    bool start_object(std::size_t /*elements*/) { return open(json::value_t::object); }
    bool start_array(std::size_t /*elements*/) { return open(json::value_t::array); }
    bool key(json::string_t& k)
    {
        m_slot = &m_stack.back()->get_ref<json::object_t&>()[std::move(k)];
        return true;
    }
    bool end_object() { return close(); }
    bool end_array() { return close(); }

    bool parse_error(std::size_t position, const std::string& /*lastToken*/, const json::exception& ex)
    {
        m_errorPosition = position;
        m_message = stripExceptionPrefix(ex.what());
        return false;
    }

    bool tooDeep() const { return m_tooDeep; }
    std::size_t errorPosition() const { return m_errorPosition; }
    std::string& message() { return m_message; }

private:
    json* put(json&& v)
    {
        if (m_stack.empty()) {
            m_root = std::move(v);
            return &m_root;
        }
        json* parent = m_stack.back();
        if (parent->is_array()) {
            auto& arr = parent->get_ref<json::array_t&>();
            arr.push_back(std::move(v));
            return &arr.back();
        }
        *m_slot = std::move(v);
        return m_slot;
    }

    bool open(json::value_t type)
    {
        if (std::ptrdiff_t(m_stack.size()) >= m_maxDepth) {
            m_tooDeep = true;
            return false;
        }
        m_stack.push_back(put(json(type)));
        return true;
    }

    bool close()
    {
        m_stack.pop_back();
        return true;
    }

    json& m_root;
    int m_maxDepth;
    std::vector<json*> m_stack;
    json* m_slot = nullptr;
    bool m_tooDeep = false;
    std::size_t m_errorPosition = 0;
    std::string m_message;
};

// ---- the quick path --------------------------------------------------------------------------------------------
// simdjson parses (and validates: structure, UTF-8, escapes, control characters, numbers) several times faster than
// nlohmann's lexer, which reads a character at a time. Its DOM is converted into nlohmann's, which everything else
// works on. The quick path only answers when it builds exactly the value nlohmann would: anything else — any error,
// a number simdjson does not take (beyond 64 bits, out of double range), nesting past the limit, the token -0 —
// returns false and the document is parsed again by nlohmann, which then gives the same value or the same located
// error as always. tst_json compares the two paths on crafted edge cases and random documents, and fuzz_jsonquick
// on any input.

// nlohmann reads "-0" as the signed integer 0 and "0" as the unsigned one; simdjson gives both as the int64 0.
// True when the text may hold the token -0: a "-0" that starts the text or follows what can precede a value
// (':', ',', '[' or whitespace), and that no digit, fraction or exponent follows. A zero then needs nlohmann to tell
// which it was. Text inside strings can match too ("a: -0 b"), which only costs a needless slow parse; "model-0"
// does not.
bool hasNegativeZeroToken(std::string_view text)
{
    for (std::size_t at = text.find("-0"); at != std::string_view::npos; at = text.find("-0", at + 2)) {
        if (at > 0) {
            const char before = text[at - 1];
            if (before != ':' && before != ',' && before != '[' && before != ' ' && before != '\t' && before != '\n'
                && before != '\r')
                continue;
        }
        const std::size_t next = at + 2;
        if (next >= text.size())
            return true;
        const char c = text[next];
        if (!(c >= '0' && c <= '9') && c != '.' && c != 'e' && c != 'E')
            return true;
    }
    return false;
}

class QuickConverter
{
public:
    QuickConverter(std::string_view text, int maxDepth)
        : m_text(text)
        , m_maxDepth(maxDepth)
    { }

    // Recursion is bounded: simdjson refuses documents nested deeper than its parser's max_depth (kQuickMaxDepth).
    bool convert(simdjson::dom::element element, json& out, int depth)
    {
        switch (element.type()) {
        case simdjson::dom::element_type::ARRAY: {
            if (depth >= m_maxDepth)
                return false;
            out = json::array();
            auto& array = out.get_ref<json::array_t&>();
            simdjson::dom::array items;
            if (element.get_array().get(items) != simdjson::SUCCESS)
                return false;
            array.reserve(items.size());
            for (simdjson::dom::element item : items) {
                if (!convert(item, array.emplace_back(), depth + 1))
                    return false;
            }
            return true;
        }
        case simdjson::dom::element_type::OBJECT: {
            if (depth >= m_maxDepth)
                return false;
            out = json::object();
            auto& object = out.get_ref<json::object_t&>();
            simdjson::dom::object fields;
            if (element.get_object().get(fields) != simdjson::SUCCESS)
                return false;
            for (const simdjson::dom::key_value_pair field : fields) {
                // A repeated key keeps its last value, as nlohmann's parser does.
                json& slot = object[std::string(field.key)];
                slot = nullptr;
                if (!convert(field.value, slot, depth + 1))
                    return false;
            }
            return true;
        }
        case simdjson::dom::element_type::INT64: {
            std::int64_t value = 0;
            if (element.get_int64().get(value) != simdjson::SUCCESS)
                return false;
            if (value < 0) {
                out = json::number_integer_t(value);
            } else {
                if (value == 0 && negativeZero())
                    return false;
                out = json::number_unsigned_t(value);
            }
            return true;
        }
        case simdjson::dom::element_type::UINT64:
            out = json::number_unsigned_t(element.get_uint64().value_unsafe());
            return true;
        case simdjson::dom::element_type::DOUBLE:
            out = json::number_float_t(element.get_double().value_unsafe());
            return std::isfinite(out.get_ref<const json::number_float_t&>());
        case simdjson::dom::element_type::STRING: {
            const std::string_view text = element.get_string().value_unsafe();
            out = std::string(text);
            return true;
        }
        case simdjson::dom::element_type::BOOL:
            out = element.get_bool().value_unsafe();
            return true;
        case simdjson::dom::element_type::NULL_VALUE:
            out = nullptr;
            return true;
        }
        return false;
    }

private:
    bool negativeZero()
    {
        if (m_negativeZero < 0)
            m_negativeZero = hasNegativeZeroToken(m_text) ? 1 : 0;
        return m_negativeZero == 1;
    }

    std::string_view m_text;
    int m_maxDepth;
    int m_negativeZero = -1; ///< unknown until a zero asks
};

constexpr std::size_t kQuickMaxDepth = 1024;
static_assert(simdjson::DEFAULT_MAX_DEPTH == kQuickMaxDepth);
/// Documents up to this size are parsed by a parser kept per thread (it keeps its buffers for the next); larger ones
/// by one made for them, so that no thread holds on to the memory of its largest document.
constexpr std::size_t kQuickKeptBytes = 1u << 20;

bool parseQuickly(std::string_view text, int maxDepth, json& out)
{
    if (text.size() >= 3 && text.substr(0, 3) == "\xEF\xBB\xBF")
        text.remove_prefix(3); // nlohmann skips a leading BOM; simdjson does not
    struct Kept
    {
        simdjson::dom::parser parser; // nesting up to simdjson::DEFAULT_MAX_DEPTH (kQuickMaxDepth)
        std::unique_ptr<char[]> buffer;
        std::size_t capacity = 0;
    };
    thread_local Kept kept;
    std::unique_ptr<Kept> oneOff;
    Kept* use = &kept;
    if (text.size() > kQuickKeptBytes) {
        oneOff = std::make_unique<Kept>();
        use = oneOff.get();
    }
    // simdjson reads up to SIMDJSON_PADDING bytes past the end: the text is copied into a padded buffer.
    const std::size_t needed = text.size() + simdjson::SIMDJSON_PADDING;
    if (use->capacity < needed) {
        use->buffer.reset(new (std::nothrow) char[needed]);
        use->capacity = use->buffer ? needed : 0;
        if (!use->buffer)
            return false;
    }
    std::memcpy(use->buffer.get(), text.data(), text.size());
    std::memset(use->buffer.get() + text.size(), 0, simdjson::SIMDJSON_PADDING);
    simdjson::dom::element root;
    if (use->parser.parse(use->buffer.get(), text.size(), false).get(root) != simdjson::SUCCESS)
        return false;
    QuickConverter converter(text, maxDepth);
    if (converter.convert(root, out, 0))
        return true;
    out = nullptr;
    return false;
}

} // namespace

bool parseJsonQuickly(std::string_view text, int maxDepth, json& out)
{
    out = nullptr;
    try {
        return parseQuickly(text, maxDepth, out);
    } catch (const std::bad_alloc&) {
        out = nullptr;
        return false;
    }
}

bool identicalJson(const json& a, const json& b)
{
    return sameStructureJson(a, b, [](const json& x, const json& y) {
        if (x.type() != y.type())
            return false;
        if (x.is_number_float()) {
            const double u = x.get_ref<const json::number_float_t&>();
            const double v = y.get_ref<const json::number_float_t&>();
            return std::bit_cast<std::uint64_t>(u) == std::bit_cast<std::uint64_t>(v);
        }
        return x == y;
    });
}

JsonTextParse parseJsonText(std::string_view text, int maxDepth, json& out)
{
    if (parseJsonQuickly(text, maxDepth, out)) {
        JsonTextParse result;
        result.ok = true;
        return result;
    }
    return parseJsonTextWithNlohmann(text, maxDepth, out);
}

JsonTextParse parseJsonTextWithNlohmann(std::string_view text, int maxDepth, json& out)
{
    JsonTextParse result;
    out = nullptr;
    LimitedDomBuilder builder(out, maxDepth);
    bool ok = false;
    try {
        ok = json::sax_parse(text.data(), text.data() + text.size(), &builder);
    } catch (const std::bad_alloc&) {
        result.message = "out of memory while parsing";
    } catch (const std::exception& e) {
        result.message = stripExceptionPrefix(e.what());
    }
    if (ok) {
        result.ok = true;
        return result;
    }
    out = nullptr;
    if (builder.tooDeep()) {
        result.tooDeep = true;
        result.errorOffset = findTooDeepOffset(text, maxDepth);
        result.message = "nesting deeper than " + std::to_string(maxDepth) + " levels";
        return result;
    }
    if (result.message.empty()) {
        // nlohmann counts the offending byte itself: position 1 is the first byte.
        result.errorOffset = std::min(text.size(), builder.errorPosition() > 0 ? builder.errorPosition() - 1 : 0);
        result.message = std::move(builder.message());
    }
    if (result.message.empty())
        result.message = "invalid JSON";
    return result;
}

TextLocation locateOffset(std::string_view text, std::size_t offset)
{
    offset = std::min(offset, text.size());
    TextLocation loc;
    std::size_t lineStart = 0;
    for (std::size_t i = 0; i < offset; ++i) {
        if (text[i] == '\n') {
            ++loc.line;
            lineStart = i + 1;
        }
    }
    loc.column = offset - lineStart + 1;
    return loc;
}

std::size_t findTooDeepOffset(std::string_view text, int maxDepth)
{
    std::ptrdiff_t depth = 0;
    JsonStringState strings;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (strings.inString(c))
            continue;
        if (c == '[' || c == '{') {
            if (++depth > maxDepth)
                return i;
        } else if (c == ']' || c == '}') {
            --depth;
        }
    }
    return text.size();
}

} // namespace structscope
