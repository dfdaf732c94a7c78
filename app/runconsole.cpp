// SPDX-License-Identifier: Apache-2.0
#include "runconsole.h"

#include "cli.h"

#include "stats/percentile.h"
#include "store/resultstore.h"

#include <cmath>

using namespace Qt::StringLiterals;

namespace structscope::cli {

namespace {

constexpr int kBarWidth = 28;

QString money(double dollars)
{
    return dollars < 0.01 && dollars > 0 ? u"$%1"_s.arg(dollars, 0, 'f', 4) : u"$%1"_s.arg(dollars, 0, 'f', 2);
}

// Left-justified in `width` columns, and always followed by a space so long cells stay apart.
QString pad(const QString& text, int width)
{
    return text.leftJustified(width - 1, u' ') + u' ';
}

} // namespace

QString formatDuration(double seconds)
{
    const qint64 s = qint64(std::llround(std::max(0.0, seconds)));
    if (s < 60)
        return u"%1s"_s.arg(s);
    if (s < 3600)
        return u"%1m%2s"_s.arg(s / 60).arg(s % 60, 2, 10, QLatin1Char('0'));
    return u"%1h%2m"_s.arg(s / 3600).arg((s % 3600) / 60, 2, 10, QLatin1Char('0'));
}

RunConsole::RunConsole(bool terminal)
    : m_terminal(terminal)
{
    m_sinceLine.start();
}

QString RunConsole::progressLine(const RunnerProgress& p)
{
    const double fraction = p.total > 0 ? double(p.done) / double(p.total) : 1.0;
    QString line = u"%1/%2 (%3%)"_s.arg(
        QString::number(p.done), QString::number(p.total), QString::number(int(std::floor(fraction * 100))));
    qint64 errors = 0;
    for (const qint64 n : p.errorsByKind)
        errors += n;
    if (errors > 0) {
        QStringList kinds;
        for (auto it = p.errorsByKind.cbegin(); it != p.errorsByKind.cend(); ++it)
            kinds << u"%1 %2"_s.arg(QString::number(it.value()), it.key());
        line += u" · errors: "_s + kinds.join(u", "_s);
    }
    if (p.retries > 0)
        line += u" · %1 retries"_s.arg(p.retries);
    if (p.cached > 0)
        line += u" · %1 cached"_s.arg(p.cached);
    if (p.cost > 0)
        line += u" · "_s + money(p.cost);
    if (p.paused)
        line += u" · paused"_s;
    else if (p.active && p.etaSeconds)
        line += u" · ETA "_s + formatDuration(*p.etaSeconds);
    return line;
}

void RunConsole::show(const RunnerProgress& p)
{
    const QString line = progressLine(p);
    if (m_terminal) {
        const double fraction = p.total > 0 ? double(p.done) / double(p.total) : 1.0;
        const int filled = int(std::floor(fraction * kBarWidth));
        const QString bar = u"["_s + QString(filled, u'#') + QString(kBarWidth - filled, u'.') + u"] "_s;
        err(u"\r\x1b[2K"_s + bar + line);
        m_barShown = true;
        m_lastLine = bar + line;
        return;
    }
    // Plain output: on a change, at most every 2 s, and always at the end.
    const bool end = !p.active;
    if (p.done == m_lastDone && !end)
        return;
    if (!end && m_sinceLine.elapsed() < 2000)
        return;
    m_lastDone = p.done;
    m_sinceLine.restart();
    if (line != m_lastLine)
        err(u"progress: "_s + line + u'\n');
    m_lastLine = line;
}

void RunConsole::message(const QString& text)
{
    if (m_terminal && m_barShown)
        err(u"\r\x1b[2K"_s + text + u'\n' + m_lastLine);
    else
        err(text + u'\n');
}

void RunConsole::finish()
{
    if (m_terminal && m_barShown)
        err(u"\n"_s);
    m_barShown = false;
}

QString formatEstimate(const CostEstimate& estimate)
{
    qint64 requests = 0;
    qint64 in = 0;
    qint64 outTokens = 0;
    for (const CostEstimateLine& line : estimate.lines) {
        requests += line.requests;
        in += line.tokensIn;
        outTokens += line.tokensOut;
    }
    QString text = u"estimate: %1 requests, ~%2 tokens in, ~%3 out"_s.arg(
        QString::number(requests), QString::number(in), QString::number(outTokens));
    if (estimate.unpriced.size() < estimate.lines.size() || estimate.lines.isEmpty())
        text += u", ~"_s + money(estimate.total);
    if (!estimate.unpriced.isEmpty())
        text += u" (no price for %1)"_s.arg(estimate.unpriced.join(u", "_s));
    return text + u'\n';
}

QString formatSummary(ResultStore& store, const QList<RunRow>& runs)
{
    if (runs.isEmpty())
        return u"nothing to do\n"_s;
    QString text = pad(u"run"_s, 6) + pad(u"model"_s, 34) + pad(u"strategy"_s, 9) + pad(u"answers"_s, 12)
        + pad(u"cost"_s, 11) + pad(u"p50 ms"_s, 9) + u"errors\n"_s;
    for (const RunRow& run : runs) {
        const auto cases = store.cases(run.suiteRow);
        const qint64 slotCount = cases ? qint64(cases->size()) * run.repeats : 0;
        qint64 answers = 0;
        double cost = 0;
        bool anyCost = false;
        std::vector<double> latencies;
        QMap<QString, qint64> errors;
        const auto visited = store.forEachResponse(run.id, [&](const ResponseRow& r) {
            ++answers;
            if (r.cost) {
                cost += *r.cost;
                anyCost = true;
            }
            if (r.latencyMs)
                latencies.push_back(*r.latencyMs);
            if (!r.errorKind.isEmpty())
                ++errors[r.errorKind];
            return true;
        });
        if (!visited) {
            text += u"%1: %2\n"_s.arg(QString::number(run.id), visited.errorMessage());
            continue;
        }
        QStringList errorText;
        for (auto it = errors.cbegin(); it != errors.cend(); ++it)
            errorText << u"%1 %2"_s.arg(QString::number(it.value()), it.key());
        const double p50 = latencyPercentiles(latencies).p50;
        QString model = run.modelSpec;
        if (run.providerKind == u"sim"_s)
            model += u" (simulated)"_s;
        text += pad(QString::number(run.id), 6) + pad(model, 34) + pad(run.strategy, 9)
            + pad(u"%1/%2"_s.arg(QString::number(answers), QString::number(slotCount)), 12)
            + pad(anyCost ? money(cost) : u"-"_s, 11)
            + pad(std::isnan(p50) ? u"-"_s : QString::number(qint64(std::llround(p50))), 9)
            + (errorText.isEmpty() ? u"-"_s : errorText.join(u", "_s)) + u'\n';
    }
    return text;
}

} // namespace structscope::cli
