// SPDX-License-Identifier: Apache-2.0
// The Cases page over every response of the generated store (1,000,000 by default; --records N): the workspace
// opened as the GUI opens it, the page at the main window's size, then its table scrolled over all rows. A frame is
// one scroll step and the synchronous repaint of the table's viewport (the rows' texts, verdict colours and all);
// the aim is no frame over 16 ms. Built with the GUI only; run with QT_QPA_PLATFORM=offscreen on a machine
// without a display.
#include "bench.h"

#include "pages/casespage.h"
#include "pages/leaderboardpage.h"
#include "store/resultstore.h"
#include "widgets/goldtoggle.h"
#include "workspace/workspace.h"

#include <QAbstractItemModel>
#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QScrollBar>
#include <QTableView>
#include <QThread>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <numeric>
#include <vector>

using namespace Qt::StringLiterals;

namespace structscope::bench {

namespace {

struct Frames
{
    std::vector<double> ms;

    double max() const { return *std::max_element(ms.begin(), ms.end()); }
    double mean() const { return std::accumulate(ms.begin(), ms.end(), 0.0) / double(ms.size()); }
    qsizetype over(double limit) const
    {
        return std::count_if(ms.begin(), ms.end(), [limit](double v) { return v > limit; });
    }
};

/// Scrolls to each value in turn and repaints the viewport at once; one frame per value.
Frames scroll(QTableView& view, const std::vector<int>& values)
{
    QScrollBar* bar = view.verticalScrollBar();
    Frames frames;
    frames.ms.reserve(values.size());
    QElapsedTimer clock;
    for (const int value : values) {
        clock.start();
        bar->setValue(value);
        view.viewport()->repaint();
        frames.ms.push_back(double(clock.nsecsElapsed()) / 1e6);
    }
    return frames;
}

void reportFrames(const QString& what, const Frames& frames)
{
    report("cases", u"%1: %2 frames, mean"_s.arg(what).arg(frames.ms.size()), frames.mean(), "ms");
    report("cases", u"%1: p99 frame"_s.arg(what), quantile(frames.ms, 0.99), "ms");
    report("cases", u"%1: longest frame (%2 over 16 ms)"_s.arg(what).arg(frames.over(16.0)), frames.max(), "ms");
}

} // namespace

int benchCases(const BenchArgs& args)
{
    QTemporaryDir scratch;
    QString error;
    const QString path = ensureBenchStore(args.records > 0 ? args.records : 1000000, scratch, &error);
    if (path.isEmpty()) {
        std::fprintf(stderr, "bench cases: %s\n", qPrintable(error));
        return 1;
    }

    QElapsedTimer timer;
    timer.start();
    // Lets events through until `done`, at most 30 minutes; false (and says what was awaited) after that.
    const auto waitFor = [](const std::function<bool()>& done, const char* what) {
        QElapsedTimer waited;
        waited.start();
        while (!done()) {
            QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
            if (waited.elapsed() > 30 * 60 * 1000) {
                std::fprintf(stderr, "bench cases: %s not done after 30 minutes\n", what);
                return false;
            }
            QThread::msleep(1);
        }
        return true;
    };
    Workspace workspace;
    if (!workspace.open(path, false, &error)) {
        std::fprintf(stderr, "bench cases: %s\n", qPrintable(error));
        return 1;
    }
    CasesPage page(&workspace);
    bool applied = false;
    QObject::connect(&page, &RecordsPage::recordsApplied, &page, [&applied] { applied = true; });
    page.resize(1280, 820);
    page.show();
    if (!waitFor([&] { return applied && !page.isBusy(); }, "the Cases page"))
        return 1;
    if (!page.scoredSet()) {
        std::fprintf(stderr, "bench cases: the Cases page shows no records\n");
        return 1;
    }
    QTableView& view = *page.view();
    const int rows = view.model()->rowCount();
    report("cases", u"open the workspace to the Cases page filled (%1 rows)"_s.arg(rows),
        double(timer.elapsed()) / 1000.0, "s");
    if (rows == 0) {
        std::fprintf(stderr, "bench cases: the Cases page has no rows\n");
        return 1;
    }
    QCoreApplication::processEvents();

    QScrollBar* bar = view.verticalScrollBar();
    const int maximum = bar->maximum();
    const int page_ = std::max(1, bar->pageStep());
    // Page by page from the top, as Page Down held down does (at most 5,000 pages).
    std::vector<int> values;
    for (int v = 0; v <= maximum && values.size() < (rows >= 100000 ? 5000u : 50u); v += page_)
        values.push_back(v);
    reportFrames(u"page by page from the top"_s, scroll(view, values));
    // The thumb dragged over every row: 5,000 positions evenly spread from the first row to the last and back
    // (200 for a small store, the CTest smoke run).
    values.clear();
    const int kSteps = rows >= 100000 ? 2500 : 100;
    for (int i = 0; i <= kSteps; ++i)
        values.push_back(int(qint64(maximum) * i / kSteps));
    for (int i = kSteps; i >= 0; --i)
        values.push_back(int(qint64(maximum) * i / kSteps));
    reportFrames(u"thumb dragged over all rows and back"_s, scroll(view, values));
    // Row by row at the end of the table (the wheel).
    values.clear();
    for (int v = std::max(0, maximum - (rows >= 100000 ? 2000 : 100)); v <= maximum; ++v)
        values.push_back(v);
    reportFrames(u"row by row at the end"_s, scroll(view, values));
    // What the frames painted, to look at.
    const QString shot = QDir(QDir::tempPath()).filePath(u"structscope-bench-cases-%1.png"_s.arg(rows));
    if (page.grab().save(shot))
        std::printf("cases      the page as scrolled last: %s\n", qPrintable(shot));

    // A gold edit as the GUI makes one (a new revision through a connection of its own, then the workspace told
    // which case changed), with the Leaderboard page open beside the Cases page, both on the adjusted gold: the
    // time until both show the edit, and the process's peak memory with two scored sets alive meanwhile.
    LeaderboardPage board(&workspace);
    board.goldToggle()->setGold(GoldBasis::Adjusted);
    board.resize(1280, 820);
    bool boardApplied = false;
    QObject::connect(&board, &Page::reportApplied, &board, [&boardApplied] { boardApplied = true; });
    // The leaderboard's point estimates painted (a large set's, before its intervals): painted as soon as they are
    // applied, so that the time is the paint's and not the poll's below.
    bool editing = false;
    qint64 estimatesMs = -1;
    qint64 casesMs = -1;
    // Likewise the Cases page's rows, painted once they are applied (or, were it still reading, once it is done).
    const auto casesPainted = [&] {
        if (!editing || casesMs >= 0 || !applied || page.isBusy())
            return;
        page.repaint();
        casesMs = timer.elapsed();
    };
    QObject::connect(&page, &RecordsPage::recordsApplied, &page, casesPainted);
    QObject::connect(&board, &Page::pointEstimatesApplied, &board, [&] {
        if (!editing || estimatesMs >= 0)
            return;
        board.repaint();
        estimatesMs = timer.elapsed();
    });
    board.show();
    if (!waitFor([&] { return boardApplied && !board.isLoading(); }, "the leaderboard"))
        return 1;
    auto writer = ResultStore::open(path);
    if (!writer) {
        std::fprintf(stderr, "bench cases: the store does not open for writing\n");
        return 1;
    }
    // What one edit took, from storing the revision: the Cases page painted, the leaderboard's point estimates
    // painted (-1 when it painted none: a small set), and its intervals too.
    struct EditTimes
    {
        double casesMs = 0;
        double estimatesMs = -1;
        double totalMs = 0;
        int keptUpdated = 0; ///< the leaderboard's kept point estimates updated so far
    };
    const auto editCase = [&](qint64 caseRow, const nlohmann::json& gold, int over, const char* what,
                              int* revision) -> std::optional<EditTimes> {
        applied = false;
        boardApplied = false;
        estimatesMs = -1;
        casesMs = -1;
        editing = true;
        timer.restart();
        const GoldEditResult added = writer->addGoldRevision(caseRow, gold, u"bench"_s, u"bench"_s, over);
        if (!added.ok()) {
            std::fprintf(stderr, "bench cases: %s failed: %s\n", what, qPrintable(added.error.message));
            return std::nullopt;
        }
        workspace.notifyGoldChanged({ caseRow });
        const bool both = waitFor(
            [&] {
                casesPainted();
                return casesMs >= 0 && boardApplied && !board.isLoading();
            },
            what);
        if (!both)
            return std::nullopt;
        EditTimes times;
        times.totalMs = double(timer.elapsed());
        editing = false;
        times.casesMs = double(casesMs);
        if (estimatesMs >= 0)
            times.estimatesMs = double(std::max(casesMs, estimatesMs));
        times.keptUpdated = board.pointEstimatesUpdated();
        *revision = added.added.revision;
        return times;
    };
    const auto reportEdit = [&](const QString& what, const EditTimes& times) {
        report("cases", u"%1: the Cases page updated"_s.arg(what), times.casesMs, "ms");
        if (times.estimatesMs >= 0) {
            report("cases",
                u"%1: the Cases page and the leaderboard's point estimates updated (%2 kept ones updated)"_s.arg(what)
                    .arg(times.keptUpdated),
                times.estimatesMs, "ms");
        }
        report(
            "cases", u"%1: the Cases page and the leaderboard with intervals updated"_s.arg(what), times.totalMs, "ms");
    };
    // Five cases spread over the suite, each edited and the edit undone: the first pair printed in full, every
    // one of the ten in the summary below.
    constexpr int kEditedCases = 5;
    std::vector<EditTimes> all;
    for (int which = 0; which < kEditedCases; ++which) {
        const std::optional<BenchGoldEdit> edit = benchGoldEdit(*writer, &error, which, kEditedCases);
        if (!edit) {
            std::fprintf(stderr, "bench cases: %s\n", qPrintable(error));
            return 1;
        }
        int editedRevision = 0;
        int restoredRevision = 0;
        const auto edited = editCase(edit->caseRow, edit->edited, edit->revision, "gold edit", &editedRevision);
        if (!edited)
            return 1;
        const auto undone
            = editCase(edit->caseRow, edit->original, editedRevision, "the edit undone", &restoredRevision);
        if (!undone)
            return 1;
        if (which == 0) {
            reportEdit(u"gold edit"_s, *edited);
            reportEdit(u"the edit undone"_s, *undone);
        }
        all.push_back(*edited);
        all.push_back(*undone);
    }
    const auto summary = [&](const QString& what, double EditTimes::*field, bool aimed) {
        std::vector<double> ms;
        for (const EditTimes& times : all) {
            if (times.*field >= 0)
                ms.push_back(times.*field);
        }
        if (ms.empty())
            return;
        const auto within = std::count_if(ms.begin(), ms.end(), [](double v) { return v <= 100.0; });
        report("cases", u"%1 edits and undos of %2 cases, %3: median"_s.arg(ms.size()).arg(kEditedCases).arg(what),
            quantile(ms, 0.5), "ms");
        report("cases", aimed ? u"  longest (%1 of %2 within 100 ms)"_s.arg(within).arg(ms.size()) : u"  longest"_s,
            *std::max_element(ms.begin(), ms.end()), "ms");
    };
    summary(u"the Cases page updated"_s, &EditTimes::casesMs, true);
    summary(u"with the leaderboard's point estimates"_s, &EditTimes::estimatesMs, true);
    summary(u"with the leaderboard's intervals"_s, &EditTimes::totalMs, false);
    report("cases", u"peak memory"_s, peakRssMiB(), "MiB");
    return 0;
}

} // namespace structscope::bench
