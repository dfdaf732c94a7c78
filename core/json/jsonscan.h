// SPDX-License-Identifier: Apache-2.0
#pragma once

namespace structscope {

/// JSON's string and escape rules, one character at a time, for the scanners that look for brackets outside strings
/// (finding a balanced span, the first JSON value in prose, the place where nesting gets too deep) without parsing.
class JsonStringState
{
public:
    /// Feeds the next character: true when it belongs to a string (its quotes included), so that the caller skips
    /// it; false when it is outside every string, where brackets count.
    bool inString(char c)
    {
        if (m_inString) {
            if (m_escaped)
                m_escaped = false;
            else if (c == '\\')
                m_escaped = true;
            else if (c == '"')
                m_inString = false;
            return true;
        }
        if (c == '"') {
            m_inString = true;
            return true;
        }
        return false;
    }

private:
    bool m_inString = false;
    bool m_escaped = false;
};

} // namespace structscope
