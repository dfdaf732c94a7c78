#include "json/jsontext.h"

#include "json/textnorm.h"

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
    return truncateUtf8(sanitizeUtf8(text), kMaxMessageBytes);
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
    bool number_float(json::number_float_t v, const json::string_t&) { return put(json(v)) != nullptr; }
    // The lexer clears its token buffer before reading the next token, so moving out is safe.
    bool string(json::string_t& v) { return put(json(std::move(v))) != nullptr; }
    bool binary(json::binary_t&) { return false; } // only binary formats (CBOR, …) emit this

    bool start_object(std::size_t) { return open(json::value_t::object); }
    bool start_array(std::size_t) { return open(json::value_t::array); }
    bool key(json::string_t& k)
    {
        m_slot = &m_stack.back()->get_ref<json::object_t&>()[std::move(k)];
        return true;
    }
    bool end_object() { return close(); }
    bool end_array() { return close(); }

    bool parse_error(std::size_t position, const std::string&, const json::exception& ex)
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

} // namespace

JsonTextParse parseJsonText(std::string_view text, int maxDepth, json& out)
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
    bool inString = false;
    bool escaped = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (inString) {
            if (escaped)
                escaped = false;
            else if (c == '\\')
                escaped = true;
            else if (c == '"')
                inString = false;
            continue;
        }
        if (c == '"') {
            inString = true;
        } else if (c == '[' || c == '{') {
            if (++depth > maxDepth)
                return i;
        } else if (c == ']' || c == '}') {
            --depth;
        }
    }
    return text.size();
}

} // namespace structscope
