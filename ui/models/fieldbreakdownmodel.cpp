// SPDX-License-Identifier: Apache-2.0
#include "models/fieldbreakdownmodel.h"

#include "analysis/metricformat.h"
#include "report/fieldreport.h"

#include <algorithm>
#include <cmath>
#include <limits>

using namespace Qt::StringLiterals;

namespace structscope {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

const char* metricOf(int column)
{
    switch (column) {
    case FieldBreakdownModel::Accuracy:
    case FieldBreakdownModel::Interval95:
        return "field.accuracy";
    case FieldBreakdownModel::Strict:
        return "field.accuracy_strict";
    case FieldBreakdownModel::Missing:
        return "field.missing";
    case FieldBreakdownModel::Wrong:
        return "field.wrong";
    case FieldBreakdownModel::Invented:
        return "field.invented";
    case FieldBreakdownModel::TypeError:
        return "field.type_error";
    case FieldBreakdownModel::Values:
        return "field.elements";
    default:
        return "";
    }
}

double meanOf(const ReportGroup& g, const char* id)
{
    const auto it = g.mean.find(id);
    return it == g.mean.end() ? kNaN : it->second;
}

} // namespace

FieldBreakdownModel::FieldBreakdownModel(QObject* parent)
    : QAbstractTableModel(parent)
{ }

void FieldBreakdownModel::setReport(const Report& report, const std::vector<std::pair<std::string, std::string>>& keys)
{
    beginResetModel();
    m_rows.clear();
    for (const ReportGroup& g : report.groups) {
        std::vector<std::pair<std::string, std::string>> others;
        QString field;
        for (const auto& [key, value] : g.key) {
            if (key == kFieldGroupKey || key == kFieldRootGroupKey)
                field = QString::fromStdString(value);
            else
                others.emplace_back(key, value);
        }
        if (others == keys)
            m_rows.push_back({ field, g });
    }
    std::stable_sort(m_rows.begin(), m_rows.end(), [](const Row& a, const Row& b) {
        const double x = meanOf(a.group, "field.accuracy");
        const double y = meanOf(b.group, "field.accuracy");
        if (std::isnan(x) != std::isnan(y))
            return std::isnan(y);
        if (!std::isnan(x) && x != y)
            return x < y;
        return a.field < b.field;
    });
    endResetModel();
}

QString FieldBreakdownModel::fieldAt(int row) const
{
    return row >= 0 && row < int(m_rows.size()) ? m_rows[std::size_t(row)].field : QString();
}

int FieldBreakdownModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int FieldBreakdownModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant FieldBreakdownModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Row& row = m_rows[std::size_t(index.row())];
    const int column = index.column();
    if (role == FieldRole)
        return row.field;
    if (role == SortRole) {
        if (column == Field)
            return row.field;
        if (column == Responses)
            return row.group.n;
        return meanOf(row.group, metricOf(column));
    }
    if (role == Qt::TextAlignmentRole && column != Field)
        return int(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ToolTipRole && column == Field) {
        const QString counts = [&] {
            const double values = meanOf(row.group, "field.elements");
            const auto count = [&](const char* id) { return qint64(std::llround(meanOf(row.group, id) * values)); };
            return tr("%1 values in %2 responses: %3 right, %4 missing, %5 wrong, %6 invented")
                .arg(qint64(values))
                .arg(row.group.n)
                .arg(count("field.accuracy"))
                .arg(count("field.missing"))
                .arg(count("field.wrong"))
                .arg(count("field.invented"));
        }();
        return QString(row.field + u"\n"_s + counts);
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (column) {
    case Field:
        return row.field;
    case Responses:
        return row.group.n;
    case Values: {
        const double values = meanOf(row.group, "field.elements");
        return std::isnan(values) ? QString() : QString::number(qint64(values)); // a count
    }
    case Interval95: {
        const auto it = row.group.ci95.find("field.accuracy");
        return it == row.group.ci95.end() ? QString() : formatInterval("field.accuracy", it->second);
    }
    default:
        return formatMetricValue(metricOf(column), meanOf(row.group, metricOf(column)));
    }
}

QVariant FieldBreakdownModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case Field:
        return tr("Field");
    case Values:
        return tr("Values");
    case Responses:
        return tr("Responses");
    case Accuracy:
        return tr("Accuracy");
    case Interval95:
        return tr("95% CI");
    case Strict:
        return tr("Strict");
    case Missing:
        return tr("Missing");
    case Wrong:
        return tr("Wrong");
    case Invented:
        return tr("Invented");
    case TypeError:
        return tr("Type error");
    default:
        return {};
    }
}

} // namespace structscope
