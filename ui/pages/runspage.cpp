// SPDX-License-Identifier: Apache-2.0
#include "pages/runspage.h"

#include "analysis/metricformat.h"
#include "models/runsmodel.h"
#include "run/runner.h"
#include "settings/settings.h"
#include "store/resultstore.h"
#include "suite/suiteloader.h"
#include "suite/suitelocator.h"
#include "widgets/launchdialog.h"
#include "widgets/runprogresspanel.h"
#include "workspace/workspace.h"

#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace structscope {

namespace {

constexpr int kNotifyIntervalMs = 2000;
constexpr int kMaxGlobalConcurrency = 256;

void setAction(QPushButton* button, bool enabled, const QString& enabledTip, const QString& disabledWhy)
{
    button->setEnabled(enabled);
    button->setToolTip(enabled ? enabledTip : disabledWhy);
}

QString planLabel(const RunPlan& plan)
{
    QStringList models;
    for (const ModelSpec& spec : plan.models)
        models << displayModelName(spec.label(), spec.isSimulated());
    QStringList strategies;
    for (const Strategy s : plan.strategies)
        strategies << strategyName(s);
    return u"%1: %2 × %3"_s.arg(
        plan.suite ? plan.suite->id : QString(), models.join(u", "_s), strategies.join(u", "_s));
}

/// Suites found in `dirs` whose content hash is one of `wanted` (any thread).
QHash<QByteArray, SuitePtr> findSuites(const QStringList& dirs, const QSet<QByteArray>& wanted)
{
    QHash<QByteArray, SuitePtr> found;
    for (const QString& dir : dirs) {
        if (found.size() == wanted.size())
            break;
        const SuiteLoadResult loaded = loadSuiteDir(dir);
        if (loaded.ok() && wanted.contains(loaded.suite->contentHash))
            found.insert(loaded.suite->contentHash, loaded.suite);
    }
    return found;
}

} // namespace

RunsPage::RunsPage(Workspace* workspace, QWidget* parent)
    : Page(workspace, parent)
    , m_model(new RunsModel(this))
    , m_proxy(new QSortFilterProxyModel(this))
    , m_view(new QTableView(this))
    , m_newRun(new QPushButton(tr("New Run…"), this))
    , m_pause(new QPushButton(tr("Pause"), this))
    , m_resume(new QPushButton(tr("Resume"), this))
    , m_cancel(new QPushButton(tr("Cancel"), this))
    , m_resumeRun(new QPushButton(tr("Resume Run"), this))
    , m_retry(new QPushButton(tr("Retry Errors"), this))
    , m_message(new QLabel(this))
    , m_panel(new RunProgressPanel(this))
{
    m_profiles = Settings().modelProfiles();
    setObjectName(u"runsPage"_s);
    m_pool.setMaxThreadCount(1);
    m_newRun->setObjectName(u"newRunButton"_s);
    m_pause->setObjectName(u"pauseButton"_s);
    m_resume->setObjectName(u"resumeButton"_s);
    m_cancel->setObjectName(u"cancelButton"_s);
    m_resumeRun->setObjectName(u"resumeRunButton"_s);
    m_retry->setObjectName(u"retryErrorsButton"_s);
    m_message->setObjectName(u"runsMessage"_s);
    m_message->setWordWrap(true);
    m_message->setTextFormat(Qt::PlainText); // errors quote stored values
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto* controls = new QHBoxLayout;
    controls->addWidget(m_newRun);
    controls->addSpacing(12);
    controls->addWidget(m_pause);
    controls->addWidget(m_resume);
    controls->addWidget(m_cancel);
    controls->addSpacing(12);
    controls->addWidget(m_message, 1);

    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_panel);
    split->addWidget(makePastRunsBox());
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 3);
    split->setChildrenCollapsible(false);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(controls);
    layout->addWidget(split, 1);

    connect(m_newRun, &QPushButton::clicked, this, &RunsPage::openLaunchDialog);
    connect(m_pause, &QPushButton::clicked, this, &RunsPage::pause);
    connect(m_resume, &QPushButton::clicked, this, &RunsPage::resumeSending);
    connect(m_cancel, &QPushButton::clicked, this, &RunsPage::cancel);
    connect(m_resumeRun, &QPushButton::clicked, this, [this] {
        QString error;
        if (!resumeRuns(selectedRunIds(), &error))
            setMessage(error, true);
    });
    connect(m_retry, &QPushButton::clicked, this, [this] {
        QString error;
        if (!retryErrors(selectedRunIds(), &error))
            setMessage(error, true);
    });

    m_notifyTimer.setSingleShot(true);
    m_notifyTimer.setInterval(kNotifyIntervalMs);
    connect(&m_notifyTimer, &QTimer::timeout, this, &RunsPage::notifyWorkspace);

    // A run writes into the store it started with: another workspace stops it (resumable later).
    auto stopForWorkspace = [this] {
        if (isBusy() && this->workspace()->location() != m_storeLocation) {
            m_queue.clear();
            m_locating = false;
            if (isRunning())
                m_runner->cancel(RunStatus::Interrupted);
            setMessage(tr("The run was interrupted because the workspace changed; open it again to resume."), true);
        }
        // Nor is the store of another workspace held open: its files may be replaced (a new demo) or removed.
        if (!isBusy() && m_store && this->workspace()->location() != m_storeLocation) {
            if (m_runner)
                disconnect(m_runner.get(), nullptr, this, nullptr);
            m_runner.reset();
            m_store.reset();
            m_storeLocation.clear();
        }
        updateActions();
    };
    connect(workspace, &Workspace::opened, this, stopForWorkspace);
    connect(workspace, &Workspace::closed, this, stopForWorkspace);

    showProgress({});
    updateActions();
}

RunsPage::~RunsPage()
{
    m_notifyTimer.stop();
    if (m_loadCancel)
        m_loadCancel->store(true);
    m_queue.clear();
    if (m_runner) {
        // The runner marks an active session interrupted as it goes; nobody here listens any more.
        disconnect(m_runner.get(), nullptr, this, nullptr);
        m_runner.reset();
    }
    m_store.reset();
    m_pool.waitForDone();
}

// ---- layout ------------------------------------------------------------------------------------

QWidget* RunsPage::makePastRunsBox()
{
    auto* box = new QGroupBox(tr("Past runs"), this);
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(RunsModel::SortRole);
    m_view->setObjectName(u"runsTable"_s);
    m_view->setModel(m_proxy);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(RunsModel::Id, Qt::DescendingOrder);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_view->setAlternatingRowColors(true);
    m_view->verticalHeader()->hide();
    m_view->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_view->horizontalHeader()->setStretchLastSection(true);
    connect(m_view->selectionModel(), &QItemSelectionModel::selectionChanged, this, &RunsPage::updateActions);
    // Activating a run shows its answers on the Cases page.
    connect(m_view, &QTableView::activated, this, [this](const QModelIndex& index) {
        const RunSummary* s = m_model->summaryAt(m_proxy->mapToSource(index).row());
        if (s)
            Q_EMIT drillDown(GroupKey { { { "run", std::to_string(s->run.id) } } });
    });
    auto* hint = new QLabel(tr("Resume Run asks only the slots without an answer; Retry Errors asks the errored "
                               "answers again in a new run. Double-click a run for its cases."),
        box);
    hint->setWordWrap(true);
    hint->setEnabled(false);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_resumeRun);
    buttons->addWidget(m_retry);
    buttons->addWidget(hint, 1);
    auto* layout = new QVBoxLayout(box);
    layout->addWidget(m_view, 1);
    layout->addLayout(buttons);
    return box;
}

// ---- the past runs -----------------------------------------------------------------------------

void RunsPage::reload()
{
    if (m_loadCancel)
        m_loadCancel->store(true);
    const quint64 generation = ++m_loadGeneration;
    if (!workspace()->isOpen()) {
        m_runsLoaded = false;
        m_model->setSummaries(nullptr);
        updateActions();
        return;
    }
    m_loadCancel = std::make_shared<std::atomic_bool>(false);
    const auto cancelFlag = m_loadCancel;
    const QString location = workspace()->location();
    ++m_pendingLoads;
    QtConcurrent::run(&m_pool, [location, cancelFlag] {
        return loadRunSummaries(location, cancelFlag.get());
    }).then(this, [this, generation](const RunSummariesPtr& runs) {
        --m_pendingLoads;
        if (generation != m_loadGeneration)
            return; // the data changed again meanwhile
        applyRuns(runs);
    });
}

void RunsPage::applyRuns(const RunSummariesPtr& runs)
{
    const QList<qint64> selected = selectedRunIds();
    m_model->setSummaries(runs);
    QSet<qint64> active;
    if (isRunning()) {
        for (const RunProgress& p : std::as_const(m_progress.runs))
            active.insert(p.runId);
    }
    m_model->setActiveRuns(active);
    selectRuns(selected);
    if (!runs->error.isEmpty())
        setMessage(tr("Cannot read the runs of %1: %2").arg(workspace()->displayName(), runs->error), true);
    m_runsLoaded = true;
    updateActions();
    Q_EMIT runsLoaded();
}

QList<qint64> RunsPage::selectedRunIds() const
{
    QList<qint64> ids;
    for (const QModelIndex& index : m_view->selectionModel()->selectedRows())
        ids << index.data(RunsModel::RunIdRole).toLongLong();
    std::sort(ids.begin(), ids.end());
    return ids;
}

void RunsPage::selectRuns(const QList<qint64>& runIds)
{
    QItemSelection selection;
    for (const qint64 id : runIds) {
        const int row = m_model->rowOf(id);
        if (row < 0)
            continue;
        const QModelIndex index = m_proxy->mapFromSource(m_model->index(row, 0));
        selection.select(index, index.siblingAtColumn(RunsModel::ColumnCount - 1));
    }
    m_view->selectionModel()->select(selection, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
}

// ---- starting ----------------------------------------------------------------------------------

void RunsPage::setProfiles(const QList<ModelSpec>& profiles)
{
    m_profiles = profiles;
    Settings().setModelProfiles(profiles);
}

LaunchDialog* RunsPage::openLaunchDialog()
{
    if (m_dialog) {
        m_dialog->raise();
        m_dialog->activateWindow();
        return m_dialog;
    }
    auto* dialog = new LaunchDialog(this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->addSuiteFolders(suiteFolders());
    dialog->setModelProfiles(m_profiles);
    if (!m_lastPlans.isEmpty()) {
        QStringList dirs;
        for (const RunPlan& plan : std::as_const(m_lastPlans)) {
            if (plan.suite && !plan.suite->dir.isEmpty())
                dirs << plan.suite->dir;
        }
        const RunPlan& last = m_lastPlans.constFirst();
        dialog->setSelectedSuites(dirs);
        dialog->setSelectedModels(last.models);
        dialog->setSelectedStrategies(last.strategies);
        dialog->setRepeats(last.repeats);
        dialog->setConcurrency(last.options.perModelConcurrency);
    }
    dialog->setStarter([this, dialog](const QList<RunPlan>& plans, QString* error) {
        setProfiles(dialog->modelProfiles());
        if (!startRuns(plans, error))
            return false;
        // Folders the user added belong to this workspace from now on (imports of generic results find them).
        Settings settings;
        for (const QString& dir : dialog->addedSuiteFolders())
            settings.addSuiteFolder(workspace()->location(), dir);
        return true;
    });
    connect(dialog, &QDialog::finished, this, [this, dialog] { setProfiles(dialog->modelProfiles()); });
    m_dialog = dialog;
    dialog->open();
    return dialog;
}

QStringList RunsPage::suiteFolders() const
{
    QStringList dirs = m_folders;
    if (workspace()->isOpen()) {
        for (const QString& dir : Settings().suiteFolders(workspace()->location())) {
            if (!dirs.contains(dir))
                dirs << dir;
        }
    }
    return dirs;
}

bool RunsPage::startRun(const RunPlan& plan, QString* error)
{
    return startRuns({ plan }, error);
}

bool RunsPage::startRuns(const QList<RunPlan>& plans, QString* error)
{
    if (plans.isEmpty()) {
        if (error)
            *error = tr("Nothing to run: choose suites, models and strategies.");
        return false;
    }
    std::deque<Session> sessions;
    for (const RunPlan& plan : plans)
        sessions.push_back({ planLabel(plan), [plan](Runner& runner, QString* e) { return runner.start(plan, e); } });
    if (!startSessions(std::move(sessions), error))
        return false;
    remember(plans);
    return true;
}

void RunsPage::remember(const QList<RunPlan>& plans)
{
    m_lastPlans = plans;
    for (const RunPlan& plan : plans) {
        if (!plan.suite)
            continue;
        m_knownSuites.insert(plan.suite->contentHash, plan.suite);
        if (!plan.suite->dir.isEmpty() && !m_folders.contains(plan.suite->dir))
            m_folders << plan.suite->dir;
    }
}

bool RunsPage::ensureRunner(QString* error)
{
    auto fail = [this, error](const QString& message) {
        if (error)
            *error = message;
        setMessage(message, true);
        return false;
    };
    if (!workspace()->isOpen())
        return fail(tr("Open or create a workspace first: runs are stored in it."));
    if (isBusy())
        return fail(tr("A run is in progress: wait for it to end or cancel it."));
    if (m_runner && m_storeLocation == workspace()->location())
        return true;
    m_runner.reset();
    m_store.reset();
    ResultStore::OpenOptions options;
    options.createIfMissing = false;
    options.integrityCheck = false; // the workspace checked it when it opened
    StoreError storeError;
    m_store = ResultStore::open(workspace()->location(), options, &storeError);
    if (!m_store)
        return fail(tr("Cannot open the workspace store %1: %2").arg(workspace()->displayName(), storeError.message));
    if (m_store->isReadOnly()) {
        const QString why = m_store->readOnlyReason();
        m_store.reset();
        return fail(tr("The workspace store %1 is read-only (%2): runs cannot be stored.")
                        .arg(workspace()->displayName(), why));
    }
    m_storeLocation = workspace()->location();
    m_runner = std::make_unique<Runner>(*m_store);
    connect(m_runner.get(), &Runner::progressChanged, this, &RunsPage::showProgress);
    connect(m_runner.get(), &Runner::responseReceived, this, [this] {
        if (!m_notifyTimer.isActive())
            m_notifyTimer.start();
    });
    connect(m_runner.get(), &Runner::warning, this, [this](const QString& text) { setMessage(text, true); });
    connect(m_runner.get(), &Runner::finished, this, &RunsPage::sessionEnded);
    return true;
}

bool RunsPage::startSessions(std::deque<Session> sessions, QString* error)
{
    if (!ensureRunner(error))
        return false;
    m_queue = std::move(sessions);
    return startNext(error);
}

bool RunsPage::startNext(QString* error)
{
    if (m_queue.empty() || !m_runner)
        return false;
    const Session session = m_queue.front();
    m_queue.pop_front();
    m_sessionLabel = session.label;
    m_panel->beginSession(session.label);
    m_progress = {};
    QString why;
    if (!session.begin(*m_runner, &why)) {
        const QString message = tr("Cannot start %1: %2").arg(session.label, why);
        if (error)
            *error = why;
        m_queue.clear();
        setMessage(message, true);
        showProgress(m_runner->progress());
        updateActions();
        return false;
    }
    setMessage(tr("Started %1.").arg(session.label));
    showProgress(m_runner->progress());
    reload(); // the new runs are in the store
    return true;
}

void RunsPage::sessionEnded(RunStatus status)
{
    m_notifyTimer.stop();
    notifyWorkspace();
    const RunnerProgress p = m_runner ? m_runner->progress() : m_progress;
    showProgress(p);
    const QString elapsed = RunProgressPanel::durationText(p.elapsedSeconds);
    if (status == RunStatus::Finished) {
        setMessage(tr("Finished %1: %2 answers stored in %3.")
                       .arg(m_sessionLabel, QString::number(p.doneThisSession), elapsed));
    } else {
        QString text = tr("%1 %2: %3 of %4 slots answered. Select its runs below and press Resume Run to finish them.")
                           .arg(status == RunStatus::Interrupted ? tr("Interrupted") : tr("Cancelled"), m_sessionLabel,
                               QString::number(p.done), QString::number(p.total));
        if (!m_queue.empty())
            text += u' '
                + (m_queue.size() == 1 ? tr("1 more suite was not started.")
                                       : tr("%1 more suites were not started.").arg(m_queue.size()));
        m_queue.clear();
        setMessage(text);
        QList<qint64> ids;
        for (const RunProgress& run : p.runs)
            ids << run.runId;
        selectRuns(ids); // applied again when the list reloads, which keeps the selection
    }
    updateActions();
    Q_EMIT sessionFinished(status);
    if (!m_queue.empty()) {
        // Not from inside the runner's own signal: the next session starts from the event loop.
        QTimer::singleShot(0, this, [this] {
            if (m_queue.empty() || isRunning())
                return;
            if (!startNext(nullptr))
                Q_EMIT allFinished();
        });
        return;
    }
    Q_EMIT allFinished();
}

// ---- resume and retry of stored runs -----------------------------------------------------------

bool RunsPage::resumeRuns(const QList<qint64>& runIds, QString* error)
{
    QList<qint64> resumable;
    for (const qint64 id : runIds) {
        const RunSummary* s = m_model->summaryAt(m_model->rowOf(id));
        if (s && s->canResume())
            resumable << id;
    }
    if (resumable.isEmpty()) {
        if (error)
            *error = runIds.isEmpty() ? tr("Select a cancelled or interrupted run to resume.")
                                      : tr("The selected runs have an answer for every slot: nothing to resume.");
        return false;
    }
    bool trust = false;
    if (!confirmStoreOrigins(resumable, &trust, error))
        return false;
    if (!ensureRunner(error))
        return false;
    continueStored(resumable, false, trust);
    return true;
}

bool RunsPage::retryErrors(const QList<qint64>& runIds, QString* error)
{
    QList<qint64> errored;
    for (const qint64 id : runIds) {
        const RunSummary* s = m_model->summaryAt(m_model->rowOf(id));
        if (s && s->canRetry())
            errored << id;
    }
    if (errored.isEmpty()) {
        if (error)
            *error = runIds.isEmpty() ? tr("Select a run with errors to ask them again.")
                                      : tr("The selected runs have no errored answers to ask again.");
        return false;
    }
    bool trust = false;
    if (!confirmStoreOrigins(errored, &trust, error))
        return false;
    if (!ensureRunner(error))
        return false;
    continueStored(errored, true, trust);
    return true;
}

bool RunsPage::confirmStoreOrigins(const QList<qint64>& runIds, bool* trust, QString* error)
{
    // The user named these endpoints: in the launcher's profiles, or in the runs started from this page.
    QList<ModelSpec> named = m_profiles;
    for (const RunPlan& plan : std::as_const(m_lastPlans))
        named += plan.models;
    QList<RunRow> runs;
    for (const qint64 id : runIds) {
        if (const RunSummary* s = m_model->summaryAt(m_model->rowOf(id)))
            runs << s->run;
    }
    const QList<StoredEndpoint> untrusted = untrustedStoredEndpoints(runs, named);
    *trust = false;
    if (untrusted.isEmpty())
        return true;
    const bool confirmed = m_confirmStoreOrigins ? m_confirmStoreOrigins(untrusted) : [&] {
        QStringList lines;
        for (const StoredEndpoint& e : untrusted)
            lines << tr("Run %1: %2 would receive %3").arg(e.runId).arg(e.origin, e.variables.join(u", "_s));
        QMessageBox box(QMessageBox::Warning, tr("Send secrets to endpoints from the store?"),
            tr("These endpoints come from the store, not from your model profiles. A store can come from anyone: "
               "send them the values of these environment variables only if you trust it.")
                + u"\n\n"_s + lines.join(u'\n'),
            QMessageBox::Cancel, this);
        box.addButton(tr("Send"), QMessageBox::AcceptRole);
        box.setDefaultButton(QMessageBox::Cancel);
        return box.exec() != QMessageBox::Cancel;
    }();
    if (!confirmed) {
        const QString why = tr("Nothing sent: the endpoints of the selected runs come from the store. Add them as "
                               "model profiles (New Run…) to send to them.");
        setMessage(why, true);
        if (error)
            *error = why;
        return false;
    }
    *trust = true;
    return true;
}

void RunsPage::continueStored(const QList<qint64>& runIds, bool retry, bool trust)
{
    // Group the runs by the suite content they were made with: one runner session per suite.
    QHash<QByteArray, QList<qint64>> bySuite;
    QHash<QByteArray, QString> suiteIds;
    QList<QByteArray> order;
    QSet<QString> endpoints;
    for (const qint64 id : runIds) {
        const RunSummary* s = m_model->summaryAt(m_model->rowOf(id));
        const QByteArray hash = s->run.suiteHash.toLatin1();
        if (!bySuite.contains(hash))
            order << hash;
        bySuite[hash] << id;
        suiteIds.insert(hash, s->suiteId);
        endpoints.insert(s->run.modelSpec);
    }
    RunnerOptions options = m_options;
    options.globalConcurrency = std::min(kMaxGlobalConcurrency, options.perModelConcurrency * int(endpoints.size()));
    // The endpoints the user named replace the stored ones (see confirmStoreOrigins).
    QList<ModelSpec> profiles = m_profiles;
    for (const RunPlan& plan : std::as_const(m_lastPlans))
        profiles += plan.models;

    auto begin = [this, bySuite, suiteIds, order, options, profiles, retry, trust](
                     const QHash<QByteArray, SuitePtr>& suites) {
        QStringList missing;
        for (const QByteArray& hash : order) {
            if (!suites.contains(hash))
                missing << tr("'%1' (as run %2 used it)").arg(suiteIds.value(hash)).arg(bySuite.value(hash).first());
        }
        if (!missing.isEmpty()) {
            setMessage(tr("Cannot find the suite %1 among the built-in suites and this workspace's suite folders: "
                          "add its folder with New Run… ▸ Add Suite Folder, then try again.")
                           .arg(missing.join(u", "_s)),
                true);
            updateActions();
            Q_EMIT allFinished();
            return;
        }
        std::deque<Session> sessions;
        for (const QByteArray& hash : order) {
            const SuitePtr suite = suites.value(hash);
            const QList<qint64> ids = bySuite.value(hash);
            QStringList idText;
            for (const qint64 id : ids)
                idText << QString::number(id);
            const QString label = (retry ? tr("errors of run(s) %1 of %2") : tr("run(s) %1 of %2"))
                                      .arg(idText.join(u", "_s), suite->id);
            if (retry) {
                const RetryPlan plan { suite, ids, {}, profiles, options, trust };
                sessions.push_back({ label, [plan](Runner& r, QString* e) { return r.retryErrors(plan, e); } });
            } else {
                const ResumePlan plan { suite, ids, profiles, options, trust };
                sessions.push_back({ label, [plan](Runner& r, QString* e) { return r.resume(plan, e); } });
            }
        }
        QString error;
        if (!startSessions(std::move(sessions), &error))
            Q_EMIT allFinished();
    };

    QSet<QByteArray> wanted;
    for (const QByteArray& hash : order) {
        if (!m_knownSuites.contains(hash))
            wanted.insert(hash);
    }
    if (wanted.isEmpty()) {
        begin(m_knownSuites);
        return;
    }
    // Loading candidate suites reads files: off the GUI thread.
    QStringList candidates = suiteFolders();
    for (const QString& name : builtInSuiteNames()) {
        if (const QString dir = resolveSuitePath(name); !dir.isEmpty() && !candidates.contains(dir))
            candidates << dir;
    }
    m_locating = true;
    setMessage(tr("Looking for the suite of the selected runs…"));
    updateActions();
    QtConcurrent::run(&m_pool, [candidates, wanted] {
        return findSuites(candidates, wanted);
    }).then(this, [this, begin](const QHash<QByteArray, SuitePtr>& found) {
        if (!m_locating)
            return; // cancelled meanwhile
        m_locating = false;
        for (auto it = found.cbegin(); it != found.cend(); ++it)
            m_knownSuites.insert(it.key(), it.value());
        begin(m_knownSuites);
    });
}

// ---- the live session --------------------------------------------------------------------------

void RunsPage::pause()
{
    if (isRunning())
        m_runner->pause();
    updateActions();
}

void RunsPage::resumeSending()
{
    if (isRunning())
        m_runner->resumeSending();
    updateActions();
}

void RunsPage::cancel()
{
    m_queue.clear();
    if (m_locating) {
        m_locating = false;
        setMessage(tr("Cancelled."));
    }
    if (isRunning())
        m_runner->cancel();
    updateActions();
}

bool RunsPage::isRunning() const
{
    return m_runner && m_runner->isActive();
}

bool RunsPage::isPaused() const
{
    return isRunning() && m_runner->isPaused();
}

bool RunsPage::isBusy() const
{
    return isRunning() || !m_queue.empty() || m_locating;
}

QString RunsPage::message() const
{
    return m_message->text();
}

void RunsPage::setMessage(const QString& text, bool error)
{
    m_message->setText(error ? u"⚠ "_s + text : text);
}

void RunsPage::notifyWorkspace()
{
    if (workspace()->isOpen() && workspace()->location() == m_storeLocation)
        workspace()->notifyDataChanged();
}

void RunsPage::showProgress(const RunnerProgress& p)
{
    m_progress = p;
    m_panel->showProgress(p);
    QSet<qint64> active;
    if (p.active) {
        for (const RunProgress& run : p.runs)
            active.insert(run.runId);
    }
    m_model->setActiveRuns(active);
    updateActions();
}

void RunsPage::updateActions()
{
    const bool open = workspace()->isOpen();
    const bool running = isRunning();
    const bool paused = isPaused();
    const bool busy = isBusy();
    setAction(m_newRun, open && !busy, tr("Choose suites, models and strategies, and start a run (Ctrl+R)"),
        !open ? tr("Open or create a workspace first: runs are stored in it")
              : tr("A run is in progress: wait for it to end or cancel it"));
    setAction(m_pause, running && !paused, tr("Send nothing new; calls in flight finish and are stored"),
        !running ? tr("Nothing is running") : tr("The run is paused"));
    setAction(
        m_resume, paused, tr("Continue sending"), !running ? tr("Nothing is running") : tr("The run is not paused"));
    setAction(m_cancel, busy, tr("Stop the run: what arrived is stored; resume it later from the list"),
        tr("Nothing is running"));

    bool anyResumable = false;
    bool anyErrors = false;
    bool anyRetryRun = false;
    bool anyImported = false;
    const QList<qint64> selected = selectedRunIds();
    for (const qint64 id : selected) {
        const RunSummary* s = m_model->summaryAt(m_model->rowOf(id));
        if (!s)
            continue;
        anyResumable = anyResumable || s->canResume();
        anyErrors = anyErrors || s->canRetry();
        anyRetryRun = anyRetryRun || s->retryOf.has_value();
        anyImported = anyImported || s->imported();
    }
    const QString busyWhy = !open ? tr("Open or create a workspace first") : tr("Wait for the current run to end");
    setAction(m_resumeRun, open && !busy && anyResumable, tr("Ask the unanswered slots of the selected runs"),
        !open || busy            ? busyWhy
            : selected.isEmpty() ? tr("Select a cancelled or interrupted run in the list")
            : anyRetryRun        ? tr("A retry run covers only the errors of its run: retry that run's errors instead")
            : anyImported        ? tr("Imported results were not made by a run here: there is nothing to resume")
                                 : tr("The selected runs have an answer for every slot"));
    setAction(m_retry, open && !busy && anyErrors,
        tr("Ask the errored answers of the selected runs again, in new runs"),
        !open || busy            ? busyWhy
            : selected.isEmpty() ? tr("Select a run with errors in the list")
            : anyImported        ? tr("Imported results cannot be asked again: they were not made by a run here")
                                 : tr("The selected runs have no errored answers"));
}

} // namespace structscope
