// SPDX-License-Identifier: Apache-2.0
// Gold editing through the UI layer, on the demo workspace of pagestestdata.h: a value typed into the
// diff view's gold column is stored as a new revision (author, reason, before, after in the audit log)
// and every page re-scores — the leaderboard's adjusted ladder.correct of the oracle drops from 80/80
// to 78/80 (its two answers to the edited case no longer match) while "as measured" stays 80/80; the
// audit page then lists the consensus against the new gold, triage marks it, and undo restores the
// numbers. A value outside the schema's enum is refused with its pointer; an edit based on a revision
// another store connection has superseded is refused with both versions shown. The whole object can be
// edited too.
#include "audit/goldeditor.h"
#include "models/auditqueuemodel.h"
#include "models/diffrowsmodel.h"
#include "pages/auditpage.h"
#include "pages/casespage.h"
#include "pages/leaderboardpage.h"
#include "pagestestdata.h"
#include "pagestesthelpers.h"
#include "report/reportwriter.h"
#include "store/resultstore.h"
#include "widgets/diffview.h"
#include "widgets/golddialogs.h"
#include "widgets/goldtoggle.h"
#include "workspace/goldeditservice.h"
#include "workspace/workspace.h"

#include <QLabel>
#include <QMessageBox>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <functional>
#include <set>

using namespace Qt::StringLiterals;
using namespace structscope;
using namespace pagestest;
using nlohmann::json;

namespace {

double modelValue(const Page* page, const QString& model, const std::string& metric)
{
    const ReportDataPtr data = page->currentReport();
    if (!data)
        return std::numeric_limits<double>::quiet_NaN();
    for (const ReportGroup& group : data->report.groups) {
        if (!group.key.empty() && group.key[0].second == model.toStdString())
            return metricValue(group, metric);
    }
    return std::numeric_limits<double>::quiet_NaN();
}

/// A row of a side-by-side report: (model, gold basis) → value.
double basisValue(const Page* page, const QString& model, const char* basis, const std::string& metric)
{
    const ReportDataPtr data = page->currentReport();
    if (!data)
        return std::numeric_limits<double>::quiet_NaN();
    for (const ReportGroup& group : data->report.groups) {
        if (group.key.size() == 2 && group.key[0].second == model.toStdString()
            && group.key[1] == std::pair<std::string, std::string>("gold", basis))
            return metricValue(group, metric);
    }
    return std::numeric_limits<double>::quiet_NaN();
}

bool waitReport(Page* page)
{
    return QTest::qWaitFor([page] { return !page->isLoading() && page->currentReport(); }, kTimeoutMs);
}

} // namespace

class TestGoldEditing : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    DemoStore m_demo;
    std::unique_ptr<Workspace> m_workspace;
    std::unique_ptr<CasesPage> m_cases;
    std::unique_ptr<LeaderboardPage> m_adjusted;
    std::unique_ptr<LeaderboardPage> m_measured;

    template <typename P> std::unique_ptr<P> makePage()
    {
        auto page = std::make_unique<P>(m_workspace.get());
        page->resize(1280, 820);
        page->show();
        if (!QTest::qWaitForWindowExposed(page.get(), kTimeoutMs))
            return nullptr;
        return page;
    }

    qint64 caseRow(const char* id) const { return m_demo.caseRows.value(QString::fromLatin1(id)); }

    /// Shows one oracle answer on the Cases page and waits for its diff.
    DiffView* showOracle(const char* caseId)
    {
        if (!waitRecords(m_cases.get()))
            return nullptr;
        m_cases->showCases(key({ { "model", "sim:oracle" }, { "strategy", "P" }, { "case", caseId } }));
        DiffView* diff = m_cases->diffView();
        if (!waitDetail(diff) || !diff->detail()->ok() || diff->detail()->ref.caseId != QLatin1String(caseId))
            return nullptr;
        diff->setReasonProvider(
            [](const QString&) { return std::optional<QString>(u"the signature gives a middle initial"_s); });
        return diff;
    }

    GoldEditOutcome waitEdit(QSignalSpy& spy)
    {
        if (!waitForSignals(spy))
            return {};
        return spy.takeLast().at(0).value<GoldEditOutcome>();
    }

private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void goldEditEndToEnd();
    void invalidEditShowsPointers();
    void wholeObjectEdit();
    void conflictBetweenTwoConnections();
    void casesPageUpdatesOnlyTheRescoredRows();
    void largeSetPointEstimatesFollowAGoldEdit();
    void anotherCasesGoldEditLeavesTheShownResponse();
};

void TestGoldEditing::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(u"StructScopeTests"_s);
    QCoreApplication::setApplicationName(u"tst_goldediting"_s);
    QSettings().clear();
    QSettings().setValue(u"audit/author"_s, u"tester"_s);
    QVERIFY(m_dir.isValid());
    m_demo = makeDemoStore(m_dir.path());
    QVERIFY2(m_demo.ok(), qPrintable(m_demo.error));
    m_workspace = std::make_unique<Workspace>();
    QString error;
    QVERIFY2(m_workspace->open(m_demo.location, false, &error), qPrintable(error));
    m_cases = makePage<CasesPage>();
    m_adjusted = makePage<LeaderboardPage>();
    m_measured = makePage<LeaderboardPage>();
    QVERIFY(m_cases && m_adjusted && m_measured);
    m_adjusted->goldToggle()->setGold(GoldBasis::Adjusted);
    QVERIFY(waitReport(m_adjusted.get()));
    QVERIFY(waitReport(m_measured.get()));
}

void TestGoldEditing::cleanupTestCase()
{
    m_cases.reset();
    m_adjusted.reset();
    m_measured.reset();
    m_workspace.reset();
    QSettings().clear();
}

void TestGoldEditing::goldEditEndToEnd()
{
    // The oracle answers every case exactly: 80 of 80 correct on either gold.
    QCOMPARE(modelValue(m_adjusted.get(), u"sim:oracle"_s, "ladder.correct"), 1.0);
    QCOMPARE(modelValue(m_measured.get(), u"sim:oracle"_s, "ladder.correct"), 1.0);

    DiffView* diff = showOracle("st-001");
    QVERIFY(diff);
    QCOMPARE(diff->detail()->currentRevision, 0);
    DiffRowsModel* rows = diff->rowsModel();
    const int nameRow = rows->rowOfPointer("/requester/name");
    QVERIFY(nameRow >= 0);
    QCOMPARE(rows->index(nameRow, DiffRowsModel::Gold).data().toString(), u"\"Marta Lindqvist\""_s);

    // Typed into the gold column, as a user would.
    QSignalSpy finished(diff, &DiffView::editFinished);
    const QModelIndex cell = rows->index(nameRow, DiffRowsModel::Gold);
    QVERIFY(rows->flags(cell) & Qt::ItemIsEditable);
    rows->setData(cell, u"Marta L. Lindqvist"_s);
    const GoldEditOutcome outcome = waitEdit(finished);
    QVERIFY2(outcome.ok(), qPrintable(outcome.message));
    QCOMPARE(outcome.added.revision, 1);
    QCOMPARE(outcome.added.author, u"tester"_s);
    QVERIFY(outcome.added.gold["requester"]["name"] == "Marta L. Lindqvist");

    // The revision is on record: who, why, before and after.
    {
        auto store = ResultStore::open(m_demo.location);
        QVERIFY(store);
        const auto log = store->auditLog({ u"case"_s, QString::number(caseRow("st-001")) });
        QVERIFY(log);
        QCOMPARE(log->size(), 1);
        const AuditEntry& entry = log->first();
        QCOMPARE(entry.action, u"gold.revise"_s);
        QCOMPARE(entry.author, u"tester"_s);
        QVERIFY(entry.details["reason"] == "the signature gives a middle initial");
        QVERIFY(entry.details["before"]["requester"]["name"] == "Marta Lindqvist");
        QVERIFY(entry.details["after"]["requester"]["name"] == "Marta L. Lindqvist");
    }

    // Every page re-scores: the oracle's two answers to st-001 are now wrong on the adjusted gold,
    // 78 of 80 = 0.975; as measured nothing changes.
    QTRY_COMPARE_WITH_TIMEOUT(modelValue(m_adjusted.get(), u"sim:oracle"_s, "ladder.correct"), 0.975, kTimeoutMs);
    QVERIFY(waitReport(m_measured.get()));
    QCOMPARE(modelValue(m_measured.get(), u"sim:oracle"_s, "ladder.correct"), 1.0);
    // Side by side, the oracle has two rows: 80/80 as measured, then 78/80 adjusted; a drill-down from
    // either row lands on the same cases (the basis is not a case filter).
    {
        auto both = makePage<LeaderboardPage>();
        QVERIFY(both);
        QVERIFY(both->goldToggle()->findChild<QWidget*>(u"goldBoth"_s)->isVisible());
        both->goldToggle()->setSideBySide(true);
        QTRY_COMPARE_WITH_TIMEOUT(
            basisValue(both.get(), u"sim:oracle"_s, "measured", "ladder.correct"), 1.0, kTimeoutMs);
        QCOMPARE(basisValue(both.get(), u"sim:oracle"_s, "adjusted", "ladder.correct"), 0.975);
        QCOMPARE(both->currentReport()->report.gold, std::string("both"));
        QSignalSpy drilled(both.get(), &Page::drillDown);
        both->view()->setFocus();
        both->view()->selectRow(0);
        Q_EMIT both->view()->activated(both->view()->model()->index(0, 0));
        QCOMPARE(drilled.size(), 1);
        const GroupKey key = drilled.first().at(0).value<GroupKey>();
        QVERIFY(!key.value("gold"));
        QVERIFY(key.value("model"));
    }
    // The diff shows the new gold against the same answer.
    QVERIFY(QTest::qWaitFor([diff] { return !diff->isLoading() && diff->detail()->currentRevision == 1; }, kTimeoutMs));
    QCOMPARE(rows->index(nameRow, DiffRowsModel::Gold).data().toString(), u"\"Marta L. Lindqvist\""_s);
    QCOMPARE(rows->index(nameRow, 0).data(DiffRowsModel::MarkRole).toInt(), int(DiffMark::Deviation));
    QCOMPARE(int(diff->detail()->verdict.ladder), int(LadderLabel::ValueIncorrect));

    // The audit queue hears the consensus of the models against the new gold; triage marks it.
    auto audit = makePage<AuditPage>();
    QVERIFY(audit);
    QVERIFY(QTest::qWaitFor([&audit] { return !audit->isBusy() && audit->model()->queue(); }, kTimeoutMs));
    int item = -1;
    for (int row = 0; row < audit->model()->rowCount(); ++row) {
        const AuditItem* candidate = audit->model()->itemAt(row);
        if (candidate->caseId == u"st-001"_s && candidate->path == "requester.name")
            item = row;
    }
    QVERIFY2(item >= 0, "the edited value is suspect now");
    const AuditItem* suspect = audit->model()->itemAt(item);
    QVERIFY(suspect->consensus == "Marta Lindqvist");
    QVERIFY(suspect->gold && *suspect->gold == "Marta L. Lindqvist");
    QVERIFY(suspect->agreeing >= 3);
    audit->grab().save(screenshotDir() + u"/pages-audit-after-edit.png"_s);
    QSignalSpy triaged(audit.get(), &AuditPage::triageApplied);
    audit->triageRow(item, TriageState::Dismissed);
    QVERIFY(waitForSignals(triaged));
    QCOMPARE(triaged.first().at(0).toBool(), true);
    QCOMPARE(audit->model()->index(item, AuditQueueModel::Triage).data().toString(), u"dismissed"_s);
    QCOMPARE(audit->model()->index(item, AuditQueueModel::By).data().toString(), u"tester"_s);
    QVERIFY(!audit->model()->index(item, AuditQueueModel::When).data().toString().isEmpty());

    // Undo (Ctrl+Z on the page) stores a revision that restores the gold, and the numbers follow.
    QVERIFY(diff->undoAction()->isEnabled());
    m_cases->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(m_cases.get(), kTimeoutMs)); // a loaded machine may take more than 5 s
    m_cases->view()->setFocus();
    QTest::keyClick(m_cases->view(), Qt::Key_Z, Qt::ControlModifier);
    const GoldEditOutcome undone = waitEdit(finished);
    QVERIFY2(undone.ok(), qPrintable(undone.message));
    QCOMPARE(undone.added.revision, 2);
    QVERIFY(undone.added.reason.startsWith(u"undo: revision 1"_s));
    QVERIFY(undone.added.gold["requester"]["name"] == "Marta Lindqvist");
    QTRY_COMPARE_WITH_TIMEOUT(modelValue(m_adjusted.get(), u"sim:oracle"_s, "ladder.correct"), 1.0, kTimeoutMs);
    QVERIFY(!GoldEditService::of(m_workspace.get())->canUndo());
}

void TestGoldEditing::invalidEditShowsPointers()
{
    DiffView* diff = showOracle("st-003");
    QVERIFY(diff);
    const int revision = diff->detail()->currentRevision;
    QSignalSpy finished(diff, &DiffView::editFinished);
    diff->requestLeafEdit("/category", json("printer"));
    const GoldEditOutcome outcome = waitEdit(finished);
    QCOMPARE(int(outcome.status), int(GoldEditOutcome::Status::Invalid));
    QVERIFY(std::any_of(outcome.schemaErrors.begin(), outcome.schemaErrors.end(),
        [](const SchemaError& e) { return e.pointer == "/category"; }));
    auto* box = diff->findChild<QMessageBox*>(u"editRefusedBox"_s);
    QVERIFY(box);
    QVERIFY(box->informativeText().contains(u"/category"_s));
    box->close();
    auto store = ResultStore::open(m_demo.location);
    QCOMPARE(store->currentGold(caseRow("st-003"))->revision, revision);

    // Without a reason nothing is submitted at all.
    diff->setReasonProvider([](const QString&) { return std::optional<QString>(); });
    diff->requestLeafEdit("/priority", json("low"));
    QTest::qWait(300);
    QCOMPARE(finished.count(), 0);
}

void TestGoldEditing::wholeObjectEdit()
{
    DiffView* diff = showOracle("st-005");
    QVERIFY(diff);
    QCOMPARE(diff->detail()->currentRevision, 0);
    json edited = diff->detail()->currentGold;
    edited["priority"] = "high";
    diff->setGoldProvider([edited](const CaseDetail&) {
        return std::optional<std::pair<json, QString>>(std::pair(edited, u"the follow-up lowers it to high"_s));
    });
    QSignalSpy finished(diff, &DiffView::editFinished);
    diff->editWholeGold();
    const GoldEditOutcome outcome = waitEdit(finished);
    QVERIFY2(outcome.ok(), qPrintable(outcome.message));
    QVERIFY(outcome.added.gold == edited);
    QCOMPARE(outcome.added.reason, u"the follow-up lowers it to high"_s);
    // The oracle's two answers to st-005 say "critical": 78/80 on the adjusted gold.
    QTRY_COMPARE_WITH_TIMEOUT(modelValue(m_adjusted.get(), u"sim:oracle"_s, "ladder.correct"), 0.975, kTimeoutMs);
    QVERIFY(QTest::qWaitFor([diff] { return !diff->isLoading() && diff->detail()->currentRevision == 1; }, kTimeoutMs));
    QCOMPARE(
        diff->rowsModel()->index(diff->rowsModel()->rowOfPointer("/priority"), 0).data(DiffRowsModel::MarkRole).toInt(),
        int(DiffMark::Deviation));
    GoldEditService* service = GoldEditService::of(m_workspace.get());
    QSignalSpy undone(service, &GoldEditService::editFinished);
    QVERIFY(service->undo());
    QVERIFY(waitForSignals(undone));
    QVERIFY(undone.first().at(1).value<GoldEditOutcome>().ok());
    QTRY_COMPARE_WITH_TIMEOUT(modelValue(m_adjusted.get(), u"sim:oracle"_s, "ladder.correct"), 1.0, kTimeoutMs);
}

void TestGoldEditing::conflictBetweenTwoConnections()
{
    DiffView* diff = showOracle("st-002");
    QVERIFY(diff);
    const int seen = diff->detail()->currentRevision;
    // Another annotator, with a store connection of their own, saves first.
    json theirs = diff->detail()->currentGold;
    theirs["priority"] = "medium";
    {
        QString error;
        auto other = ResultStore::open(m_demo.location, &error);
        QVERIFY2(other, qPrintable(error));
        GoldEdit edit;
        edit.caseRow = caseRow("st-002");
        edit.gold = theirs;
        edit.author = u"someone-else"_s;
        edit.reason = u"the email says medium later on"_s;
        edit.basedOnRevision = seen;
        const GoldEditOutcome stored = applyGoldEdit(*other, edit);
        QVERIFY2(stored.ok(), qPrintable(stored.message));
    }
    // This view still shows revision `seen`; its edit is refused, nothing is overwritten.
    QCOMPARE(diff->detail()->currentRevision, seen);
    QSignalSpy finished(diff, &DiffView::editFinished);
    diff->requestLeafEdit("/asset_tag", json("NB-00000"));
    const GoldEditOutcome outcome = waitEdit(finished);
    QCOMPARE(int(outcome.status), int(GoldEditOutcome::Status::Conflict));
    QVERIFY(outcome.theirs.gold == theirs);
    QCOMPARE(outcome.theirs.author, u"someone-else"_s);
    QVERIFY(outcome.mine.gold["asset_tag"] == "NB-00000");
    QVERIFY(outcome.mine.gold["priority"] != "medium");
    auto* dialog = diff->findChild<GoldConflictDialog*>();
    QVERIFY(dialog);
    QVERIFY(dialog->theirsText().contains(u"\"medium\""_s));
    QVERIFY(dialog->mineText().contains(u"NB-00000"_s));
    dialog->grab().save(screenshotDir() + u"/pages-conflict.png"_s);
    dialog->close();
    auto store = ResultStore::open(m_demo.location);
    const auto current = store->currentGold(caseRow("st-002"));
    QVERIFY(current->gold == theirs);
    // The view reloads the newer revision, so the next edit starts from theirs.
    QVERIFY(QTest::qWaitFor(
        [diff, seen] { return !diff->isLoading() && diff->detail()->currentRevision == seen + 1; }, kTimeoutMs));
}

void TestGoldEditing::casesPageUpdatesOnlyTheRescoredRows()
{
    QVERIFY(waitRecords(m_cases.get()));
    m_cases->showCases(key({ { "model", "sim:oracle" } }));
    CasesModel* model = m_cases->model();
    // The oracle's answers to st-003, and a selected row of another case, which must stay selected.
    std::set<int> editedRows;
    for (int row = 0; row < model->rowCount(); ++row) {
        if (model->recordAt(row)->caseId == u"st-003"_s)
            editedRows.insert(row);
    }
    QVERIFY(!editedRows.empty());
    const QModelIndex last = m_cases->proxy()->index(m_cases->proxy()->rowCount() - 1, 0);
    m_cases->view()->setCurrentIndex(last);
    const CaseRef selected = caseRefOf(*model->recordAt(m_cases->proxy()->mapToSource(last).row()));
    QVERIFY(selected.caseId != u"st-003"_s);
    const int shown = m_cases->proxy()->rowCount();
    const auto verdictOf = [model](int row) { return model->index(row, CasesModel::Verdict).data().toString(); };
    for (int row : editedRows) {
        if (model->recordAt(row)->model == u"sim:oracle"_s)
            QCOMPARE(verdictOf(row), u"correct"_s);
    }

    QSignalSpy resets(model, &QAbstractItemModel::modelReset);
    QSignalSpy changes(model, &QAbstractItemModel::dataChanged);
    const auto editGold = [&](const std::function<void(json&)>& change) {
        auto store = ResultStore::open(m_demo.location);
        QVERIFY(store);
        const auto current = store->currentGold(caseRow("st-003"));
        QVERIFY(current);
        GoldEdit edit;
        edit.caseRow = caseRow("st-003");
        edit.gold = current->gold;
        change(edit.gold);
        edit.author = u"tester"_s;
        edit.reason = u"test"_s;
        edit.basedOnRevision = current->revision;
        const GoldEditOutcome stored = applyGoldEdit(*store, edit);
        QVERIFY2(stored.ok(), qPrintable(stored.message));
        QSignalSpy applied(m_cases.get(), &RecordsPage::recordsApplied);
        m_workspace->notifyGoldChanged({ caseRow("st-003") });
        QVERIFY(waitForSignals(applied));
        QVERIFY(waitRecords(m_cases.get()));
    };
    const auto rowsChanged = [&changes] {
        std::set<int> rows;
        for (const QList<QVariant>& signal : std::as_const(changes)) {
            const auto from = signal.at(0).value<QModelIndex>();
            const auto to = signal.at(1).value<QModelIndex>();
            for (int row = from.row(); row <= to.row(); ++row)
                rows.insert(row);
        }
        return rows;
    };
    std::string original;
    editGold([&original](json& gold) {
        original = gold["requester"]["name"].get<std::string>();
        gold["requester"]["name"] = original + " (edited)";
    });
    QVERIFY(!original.empty());
    // Only the rows of st-003 changed; nothing was reset, the selection and the filter stand.
    QCOMPARE(resets.count(), 0);
    QCOMPARE(rowsChanged(), editedRows);
    for (int row : editedRows) {
        if (model->recordAt(row)->model == u"sim:oracle"_s)
            QCOMPARE(verdictOf(row), u"value incorrect"_s);
    }
    QCOMPARE(m_cases->proxy()->rowCount(), shown);
    QCOMPARE(
        caseRefOf(*model->recordAt(m_cases->proxy()->mapToSource(m_cases->view()->currentIndex()).row())), selected);

    // Undone the same way: the same rows change back.
    changes.clear();
    editGold([&original](json& gold) { gold["requester"]["name"] = original; });
    QCOMPARE(resets.count(), 0);
    QCOMPARE(rowsChanged(), editedRows);
    for (int row : editedRows) {
        if (model->recordAt(row)->model == u"sim:oracle"_s)
            QCOMPARE(verdictOf(row), u"correct"_s);
    }

    // Any other change of the store is a full reload.
    QSignalSpy applied(m_cases.get(), &RecordsPage::recordsApplied);
    m_workspace->notifyDataChanged();
    QVERIFY(waitForSignals(applied));
    QVERIFY(resets.count() >= 1);
}

void TestGoldEditing::largeSetPointEstimatesFollowAGoldEdit()
{
    // A page that counts the set as large keeps its point estimates with their sums: after a gold edit they are
    // updated from the re-scored records, and are what the complete report then says (and what aggregating the
    // new set gives), value for value.
    auto page = makePage<LeaderboardPage>();
    QVERIFY(page && waitReport(page.get()));
    page->setPointEstimatesFirstFrom(0);
    page->goldToggle()->setGold(GoldBasis::Adjusted);
    QVERIFY(waitReport(page.get()));
    QCOMPARE(page->pointEstimatesUpdated(), 0);
    const ReportDataPtr before = page->currentReport();

    auto store = ResultStore::open(m_demo.location);
    QVERIFY(store);
    const auto current = store->currentGold(caseRow("st-004"));
    QVERIFY(current);
    GoldEdit edit;
    edit.caseRow = caseRow("st-004");
    edit.gold = current->gold;
    edit.gold["requester"]["name"] = edit.gold["requester"]["name"].get<std::string>() + " (edited)";
    edit.author = u"tester"_s;
    edit.reason = u"test"_s;
    edit.basedOnRevision = current->revision;
    const GoldEditOutcome stored = applyGoldEdit(*store, edit);
    QVERIFY2(stored.ok(), qPrintable(stored.message));
    ReportDataPtr estimates;
    connect(page.get(), &Page::pointEstimatesApplied, this, [&] { estimates = page->currentReport(); });
    QSignalSpy applied(page.get(), &Page::reportApplied);
    m_workspace->notifyGoldChanged({ caseRow("st-004") });
    QVERIFY(waitForSignals(applied));
    QCOMPARE(page->pointEstimatesUpdated(), 1);
    QVERIFY(estimates && estimates->provisional);
    const ReportDataPtr complete = page->currentReport();
    QVERIFY(!complete->provisional);
    QVERIFY(writeReportJson(complete->report) != writeReportJson(before->report)); // the edit shows
    const ScoredSetPtr set = m_workspace->scoring()->cached(GoldBasis::Adjusted);
    QVERIFY(set && !set->rescored.empty());
    AggregateOptions quick;
    quick.groupBy = complete->report.groupBy;
    quick.intervals = false;
    const Report fresh = aggregate(set->records, quick);
    QCOMPARE(estimates->report.groups.size(), fresh.groups.size());
    QCOMPARE(estimates->report.metrics, fresh.metrics);
    for (std::size_t g = 0; g < fresh.groups.size(); ++g) {
        const ReportGroup& a = estimates->report.groups[g];
        QCOMPARE(a.key, fresh.groups[g].key);
        QCOMPARE(a.key, complete->report.groups[g].key);
        for (const auto& [id, value] : fresh.groups[g].mean) {
            const bool same
                = a.mean.count(id) && (a.mean.at(id) == value || (std::isnan(value) && std::isnan(a.mean.at(id))));
            QVERIFY2(same, id.c_str());
            const double shown = complete->report.groups[g].mean.at(id);
            QVERIFY2(shown == value || (std::isnan(value) && std::isnan(shown)), id.c_str());
        }
    }
    QCOMPARE(estimates->simulatedModels, complete->simulatedModels);

    // Undone: the same way back.
    const auto now = store->currentGold(caseRow("st-004"));
    QVERIFY(now);
    edit.gold = current->gold;
    edit.basedOnRevision = now->revision;
    QVERIFY(applyGoldEdit(*store, edit).ok());
    applied.clear();
    m_workspace->notifyGoldChanged({ caseRow("st-004") });
    QVERIFY(waitForSignals(applied));
    QCOMPARE(page->pointEstimatesUpdated(), 2);
    QCOMPARE(writeReportJson(page->currentReport()->report), writeReportJson(before->report));
}

void TestGoldEditing::anotherCasesGoldEditLeavesTheShownResponse()
{
    DiffView* diff = showOracle("st-003");
    QVERIFY(diff);
    const CaseDetailPtr shown = diff->detail();
    const qint64 shownRow = shown->caseRecord.row;
    qint64 other = 0;
    for (auto it = m_demo.caseRows.cbegin(); it != m_demo.caseRows.cend() && !other; ++it)
        other = it.value() != shownRow ? it.value() : 0;
    QVERIFY(other != 0);

    // Another case's gold changed: the shown response is neither read nor scored again.
    m_workspace->notifyGoldChanged({ other });
    QVERIFY(!diff->isLoading());
    QVERIFY(waitRecords(m_cases.get()));
    QCOMPARE(diff->detail(), shown);
    // Its own case's: it is.
    m_workspace->notifyGoldChanged({ other, shownRow });
    QVERIFY(diff->isLoading());
    QVERIFY(waitDetail(diff));
    QVERIFY(diff->detail() != shown);
    QCOMPARE(diff->detail()->caseRecord.row, shownRow);
    // Anything else (an import, a run) may change it too. The page's re-scoring of the edited cases ends first, so
    // that the reload seen below is the data change's.
    QVERIFY(waitRecords(m_cases.get()));
    QVERIFY(waitDetail(diff));
    const CaseDetailPtr reread = diff->detail();
    m_workspace->notifyDataChanged();
    QVERIFY2(diff->isLoading(),
        qPrintable(u"ref valid %1, case %2, open %3, header %4"_s.arg(diff->currentRef().isValid())
                       .arg(diff->currentRef().caseId)
                       .arg(m_workspace->isOpen())
                       .arg(diff->findChild<QLabel*>() ? diff->findChild<QLabel*>()->text() : QString())));
    QVERIFY(waitDetail(diff));
    QVERIFY(diff->detail() != reread);
    QVERIFY(waitRecords(m_cases.get()));
    QVERIFY(waitReport(m_adjusted.get()));
    QVERIFY(waitReport(m_measured.get()));
}

QTEST_MAIN(TestGoldEditing)
#include "tst_goldediting.moc"
