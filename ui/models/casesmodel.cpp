// SPDX-License-Identifier: Apache-2.0
#include "models/casesmodel.h"

#include "analysis/errorsets.h"
#include "analysis/metricformat.h"

#include <QStringList>

using namespace Qt::StringLiterals;

namespace structscope {

CasesModel::CasesModel(QObject* parent)
    : QAbstractTableModel(parent)
{ }

void CasesModel::setRecords(ScoredSetPtr set)
{
    beginResetModel();
    m_set = std::move(set);
    endResetModel();
}

void CasesModel::updateRecords(ScoredSetPtr set, const std::vector<std::size_t>& rows)
{
    if (!m_set || !set || set->records.size() != m_set->records.size()) {
        setRecords(std::move(set));
        return;
    }
    m_set = std::move(set);
    // One signal per run of consecutive rows (a case's repeats are neighbours).
    for (std::size_t first = 0; first < rows.size();) {
        std::size_t last = first;
        while (last + 1 < rows.size() && rows[last + 1] == rows[last] + 1)
            ++last;
        if (rows[last] < m_set->records.size())
            Q_EMIT dataChanged(index(int(rows[first]), 0), index(int(rows[last]), columnCount() - 1));
        first = last + 1;
    }
}

void CasesModel::setInputs(CaseTexts inputs)
{
    m_inputs = std::move(inputs);
    if (rowCount() > 0)
        Q_EMIT dataChanged(index(0, Case), index(rowCount() - 1, Case), { Qt::ToolTipRole, InputRole });
}

const ScoredRecord* CasesModel::recordAt(int row) const
{
    if (!m_set || row < 0 || std::size_t(row) >= m_set->records.size())
        return nullptr;
    return &m_set->records[std::size_t(row)];
}

QString CasesModel::inputAt(int row) const
{
    const ScoredRecord* r = recordAt(row);
    return r && m_inputs ? m_inputs->value(caseTextKey(r->suite, r->caseId)) : QString();
}

int CasesModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() || !m_set ? 0 : int(m_set->records.size());
}

int CasesModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString CasesModel::errorSummary(const ScoredRecord& record)
{
    if (record.errored())
        return errorKindName(record.error);
    const structscope::Verdict& v = record.verdict;
    if (v.rung == ParseRung::Failed)
        return tr("not parsed");
    if (v.extraction.failed)
        return tr("failed");
    QStringList parts;
    const DiffCounts& d = v.extraction.strict.diff;
    const auto add = [&parts](const QString& name, int count) {
        if (count > 0)
            parts << u"%1 %2"_s.arg(name).arg(count);
    };
    add(u"MK"_s, d.mk);
    add(u"MV"_s, d.mv);
    add(u"WV"_s, d.wv());
    add(tr("extra"), d.extra);
    // Bulk scoring does not list schema errors (the case detail does): then the summary says only "schema".
    if (!v.schemaValid)
        parts << (v.schemaErrors.empty() ? tr("schema") : u"%1 %2"_s.arg(tr("schema")).arg(v.schemaErrors.size()));
    return parts.join(u" · "_s);
}

QString CasesModel::verdictText(const ScoredRecord& record)
{
    if (record.errored())
        return tr("errored");
    return QString::fromLatin1(ladderLabelId(record.verdict.ladder)).replace(u'_', u' ');
}

QString CasesModel::verdictId(const ScoredRecord& record)
{
    return record.errored() ? QString::fromLatin1(kErroredVerdict)
                            : QString::fromLatin1(ladderLabelId(record.verdict.ladder));
}

QVariant CasesModel::data(const QModelIndex& index, int role) const
{
    const ScoredRecord* r = index.isValid() ? recordAt(index.row()) : nullptr;
    if (!r)
        return {};
    if (role == RecordIndexRole)
        return index.row();
    if (role == ErrorFlagsRole)
        return errorFlags(*r);
    if (role == InputRole)
        return inputAt(index.row());
    const int column = index.column();
    if (role == Qt::ToolTipRole) {
        if (column == Case) {
            const QString input = inputAt(index.row());
            return input.isEmpty() ? QVariant() : QVariant(input.left(600));
        }
        if ((column == Verdict || column == Errors) && r->errored())
            return tr("No answer: the last attempt failed at the transport or provider (%1). An errored slot counts "
                      "in no score.")
                .arg(errorKindName(r->error));
        if (column == Verdict && !r->verdict.parseReason.empty())
            return QString::fromStdString(r->verdict.parseReason);
        return {};
    }
    if (role == Qt::TextAlignmentRole) {
        if (column == Repeat || column == Latency || column == Cost)
            return int(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    }
    if (role != Qt::DisplayRole && role != SortRole)
        return {};
    const bool display = role == Qt::DisplayRole;
    switch (Column(column)) {
    case Suite:
        return r->suite;
    case Case:
        return r->caseId;
    case Model:
        return display ? displayModelName(r->model, r->simulated) : r->model;
    case Strategy:
        return r->strategy;
    case Repeat:
        return r->repeat;
    case Verdict:
        return display ? verdictText(*r) : verdictId(*r);
    case Errors:
        if (display)
            return errorSummary(*r);
        if (r->errored())
            return 2000000; // after every answer, even one that did not parse
        return r->verdict.rung == ParseRung::Failed ? 1000000 : r->verdict.extraction.strict.diff.total();
    case Category:
        return r->category;
    case Tier:
        return r->tier;
    case Latency:
        if (!r->latencyMs)
            return display ? QVariant(u"—"_s) : QVariant();
        return display ? QVariant(formatMetricValue("ladder.latency_p50", *r->latencyMs)) : QVariant(*r->latencyMs);
    case Cost:
        if (!r->cost)
            return display ? QVariant(u"—"_s) : QVariant();
        return display ? QVariant(formatMetricValue("ladder.cost_per_success", *r->cost)) : QVariant(*r->cost);
    case ColumnCount:
        break;
    }
    return {};
}

QVariant CasesModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (Column(section)) {
    case Suite:
        return tr("Suite");
    case Case:
        return tr("Case");
    case Model:
        return tr("Model");
    case Strategy:
        return tr("Strategy");
    case Repeat:
        return tr("Repeat");
    case Verdict:
        return tr("Verdict");
    case Errors:
        return tr("Errors");
    case Category:
        return tr("Category");
    case Tier:
        return tr("Tier");
    case Latency:
        return tr("Latency");
    case Cost:
        return tr("Cost");
    case ColumnCount:
        break;
    }
    return {};
}

} // namespace structscope
