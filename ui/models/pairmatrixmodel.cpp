// SPDX-License-Identifier: Apache-2.0
#include "models/pairmatrixmodel.h"

#include "analysis/metricformat.h"

#include <QFont>
#include <QLocale>

#include <cmath>

using namespace Qt::StringLiterals;

namespace structscope {

namespace {

QString points(double value)
{
    if (std::isnan(value))
        return u"—"_s;
    const double rounded = std::round(value * 10.0) / 10.0;
    const QString text = QLocale().toString(std::abs(rounded), 'f', 1);
    return rounded > 0 ? u"+"_s + text : rounded < 0 ? u"−"_s + text : text;
}

QString pText(double p)
{
    if (std::isnan(p))
        return u"—"_s;
    return p < 0.001 ? u"< 0.001"_s : QLocale().toString(p, 'f', 3);
}

QString adjustName(PAdjustMethod method)
{
    return method == PAdjustMethod::Holm ? QObject::tr("Holm") : QObject::tr("Benjamini–Hochberg");
}

/// The cell's numbers seen from `row`: Δ and interval as row − column.
struct Oriented
{
    double delta;
    Interval ci;
};

Oriented oriented(const PairCell& cell, std::size_t row)
{
    const PairedComparison& s = cell.stats;
    if (cell.b == row)
        return { s.deltaPoints, s.deltaCiPoints };
    return { -s.deltaPoints, { -s.deltaCiPoints.high, -s.deltaCiPoints.low } };
}

} // namespace

PairMatrixModel::PairMatrixModel(QObject* parent)
    : QAbstractTableModel(parent)
{ }

void PairMatrixModel::setMatrix(PairMatrixPtr matrix)
{
    if (matrix && matrix->ok() && matrix->adjust != m_adjust) {
        auto adjusted = std::make_shared<PairMatrix>(*matrix);
        structscope::setAdjustment(*adjusted, m_adjust, adjusted->alpha);
        matrix = std::move(adjusted);
    }
    beginResetModel();
    m_matrix = std::move(matrix);
    endResetModel();
}

void PairMatrixModel::setAdjustment(PAdjustMethod method)
{
    if (method == m_adjust)
        return;
    m_adjust = method;
    if (!m_matrix || !m_matrix->ok() || rowCount() == 0)
        return;
    auto adjusted = std::make_shared<PairMatrix>(*m_matrix);
    structscope::setAdjustment(*adjusted, method, adjusted->alpha);
    m_matrix = std::move(adjusted);
    Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, columnCount() - 1));
}

void PairMatrixModel::setPalette(const QPalette& palette)
{
    m_palette = palette;
    if (rowCount() > 0)
        Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, columnCount() - 1), { Qt::BackgroundRole });
}

Configuration PairMatrixModel::configuration(int section) const
{
    if (section < 0 || section >= rowCount())
        return {};
    return configurationOf(m_matrix->configurations[std::size_t(section)]);
}

int PairMatrixModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() || !m_matrix || !m_matrix->ok() ? 0 : int(m_matrix->configurations.size());
}

int PairMatrixModel::columnCount(const QModelIndex& parent) const
{
    return rowCount(parent);
}

const PairCell* PairMatrixModel::cellAt(const QModelIndex& index) const
{
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= columnCount())
        return nullptr;
    return m_matrix->cell(std::size_t(index.row()), std::size_t(index.column()));
}

Qt::ItemFlags PairMatrixModel::flags(const QModelIndex& index) const
{
    if (!index.isValid())
        return Qt::NoItemFlags;
    return cellAt(index) ? Qt::ItemIsEnabled | Qt::ItemIsSelectable : Qt::ItemIsEnabled;
}

QString PairMatrixModel::toolTip(const QModelIndex& index, const PairCell& cell) const
{
    const QString row = configuration(index.row()).label().toHtmlEscaped();
    const QString column = configuration(index.column()).label().toHtmlEscaped();
    const PairMatrix& m = *m_matrix;
    if (!cell.tested())
        return tr("<b>%1</b> and <b>%2</b> answered no case in common: the pair is not tested and not counted in "
                  "the adjustment.")
            .arg(row, column);
    const Oriented o = oriented(cell, std::size_t(index.row()));
    QString tip = tr("<b>%1</b> − <b>%2</b> on %3: <b>%4 points</b>, 95% CI [%5, %6] (paired bootstrap over the "
                     "%7 cases both answered).")
                      .arg(row, column, metricLabel(m.metric).toHtmlEscaped(), points(o.delta), points(o.ci.low),
                          points(o.ci.high))
                      .arg(cell.stats.n);
    tip += u"<br>"_s
        + tr("%1 p = %2; adjusted by %3 over %4 pairs: p = %5.")
              .arg(m.testName(), pText(cell.stats.pValue), adjustName(m.adjust))
              .arg(m.tested)
              .arg(pText(cell.adjustedP))
              .toHtmlEscaped();
    tip += u"<br>"_s;
    if (cell.significant)
        tip += m.adjust == PAdjustMethod::Holm
            ? tr("<b>Significant</b> after Holm's correction (adjusted p ≤ %1): the chance that any of the %2 pairs "
                 "called significant is a fluke is at most %1.")
                  .arg(m.alpha)
                  .arg(m.tested)
            : tr("<b>Significant</b> after Benjamini–Hochberg (adjusted p ≤ %1): among the pairs called "
                 "significant, at most a share %1 are expected to be flukes.")
                  .arg(m.alpha);
    else
        tip += tr("Not significant after %1 (adjusted p > %2): this difference may be chance, given how many pairs "
                  "were compared.")
                   .arg(adjustName(m.adjust))
                   .arg(m.alpha);
    tip += u"<br><i>"_s + tr("Activate the cell to open this pair in the two-configuration comparison.") + u"</i>"_s;
    return tip;
}

QVariant PairMatrixModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= columnCount())
        return {};
    const PairCell* cell = cellAt(index);
    if (role == Qt::TextAlignmentRole)
        return int(Qt::AlignCenter);
    if (!cell) {
        if (role == Qt::DisplayRole)
            return u"—"_s;
        if (role == DeltaRole || role == PValueRole || role == AdjustedPRole)
            return std::nan("");
        if (role == SignificantRole)
            return false;
        if (role == PairedCasesRole)
            return qint64(0);
        return {};
    }
    const Oriented o = oriented(*cell, std::size_t(index.row()));
    switch (role) {
    case Qt::DisplayRole:
        if (!cell->tested())
            return tr("no common cases");
        return QString(points(o.delta) + u" ["_s + points(o.ci.low) + u", "_s + points(o.ci.high) + u"]\n"_s
            + tr("p %1 · adj. %2").arg(pText(cell->stats.pValue), pText(cell->adjustedP)));
    case Qt::ToolTipRole:
        return toolTip(index, *cell);
    case Qt::FontRole:
        if (cell->significant) {
            QFont font;
            font.setBold(true);
            return font;
        }
        return {};
    case Qt::BackgroundRole:
        if (cell->significant) {
            // 30% of the highlight over the base, opaque: light on a light theme, dark on a dark one, so the
            // palette's text stays readable on it.
            const QColor base = m_palette.color(QPalette::Active, QPalette::Base);
            const QColor highlight = m_palette.color(QPalette::Active, QPalette::Highlight);
            const auto mix = [](int from, int to) { return int(std::lround(from + 0.3 * (to - from))); };
            return QColor(mix(base.red(), highlight.red()), mix(base.green(), highlight.green()),
                mix(base.blue(), highlight.blue()));
        }
        return {};
    case DeltaRole:
        return o.delta;
    case PValueRole:
        return cell->tested() ? cell->stats.pValue : std::nan("");
    case AdjustedPRole:
        return cell->adjustedP;
    case SignificantRole:
        return cell->significant;
    case PairedCasesRole:
        return cell->stats.n;
    default:
        return {};
    }
}

QVariant PairMatrixModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (section < 0 || section >= rowCount())
        return {};
    if (role == Qt::DisplayRole)
        return configuration(section).label();
    if (role == Qt::ToolTipRole)
        return orientation == Qt::Vertical ? tr("Row: the cells give this configuration minus the column's")
                                           : tr("Column: the cells give the row's configuration minus this one");
    return {};
}

} // namespace structscope
