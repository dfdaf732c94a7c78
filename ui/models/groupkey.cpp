#include "models/groupkey.h"

#include <QStringList>

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
    for (const auto& [k, v] : parts)
        items << QString::fromStdString(k) + u'=' + QString::fromStdString(v);
    return items.join(u", "_s);
}

GroupKey GroupKey::with(const std::string& key, const std::string& value) const
{
    GroupKey extended = *this;
    extended.parts.emplace_back(key, value);
    return extended;
}

} // namespace structscope
