// SPDX-License-Identifier: Apache-2.0
#include "analysis/groupkey.h"

#include <QStringList>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace structscope {

std::optional<QString> GroupKey::value(std::string_view key) const
{
    for (const auto& [k, v] : parts) {
        if (k == key)
            return QString::fromStdString(v);
    }
    return std::nullopt;
}

QString GroupKey::label() const
{
    QStringList values;
    for (const auto& part : parts)
        values << (part.second.empty() ? u"—"_s : QString::fromStdString(part.second));
    return values.join(u" · "_s);
}

QString GroupKey::toString() const
{
    QStringList items;
    for (const auto& [k, v] : parts) {
        // A list (one item a line, e.g. the cases of a failure overlap) is summed up by its length.
        const qsizetype lines = v.empty() ? 0 : qsizetype(std::count(v.begin(), v.end(), '\n')) + 1;
        items << QString::fromStdString(k) + u'='
                + (lines > 1 ? u"(%1 items)"_s.arg(lines) : QString::fromStdString(v));
    }
    return items.join(u", "_s);
}

GroupKey GroupKey::with(const std::string& key, const std::string& value) const
{
    GroupKey extended = *this;
    extended.parts.emplace_back(key, value);
    return extended;
}

} // namespace structscope
