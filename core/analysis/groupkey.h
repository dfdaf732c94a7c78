// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QMetaType>
#include <QString>

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace structscope {

/// Identifies one group of a report (e.g. model=gpt-x, strategy=P): what a row or cell stands for,
/// handed to drill-down views (the cases of that model, of that cell).
struct GroupKey
{
    std::vector<std::pair<std::string, std::string>> parts; ///< (group key, value), in group-by order

    /// The value of one key, if the group has it.
    std::optional<QString> value(std::string_view key) const;
    /// "gpt-x · P": the values only, for labels.
    QString label() const;
    /// "model=gpt-x, strategy=P".
    QString toString() const;
    /// This key extended by (key, value).
    GroupKey with(const std::string& key, const std::string& value) const;

    friend bool operator==(const GroupKey&, const GroupKey&) = default;
};

} // namespace structscope

Q_DECLARE_METATYPE(structscope::GroupKey)
