// SPDX-License-Identifier: Apache-2.0
#include "demosetup.h"

#include "demo/demoworkspace.h"
#include "settings/settings.h"
#include "widgets/activityindicator.h"
#include "workspace/workspace.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QLocale>
#include <QPromise>
#include <QStandardPaths>
#include <QTimer>
#include <QtConcurrent/QtConcurrentRun>

#include <limits>

using namespace Qt::StringLiterals;

namespace structscope {

namespace {

// How long start() waits for the old file's last reader to close it (a scoring pass notices it was cancelled within
// a chunk of responses), and how often it looks.
constexpr qint64 kUnusedWaitMs = 60000;
constexpr int kUnusedPollMs = 20;

} // namespace

DemoSetup::DemoSetup(Workspace* workspace, Settings* settings, ActivityIndicator* activity, QObject* parent)
    : QObject(parent)
    , m_workspace(workspace)
    , m_settings(settings)
    , m_activity(activity)
{
    m_pool.setMaxThreadCount(1);
    connect(m_activity, &ActivityIndicator::cancelRequested, this, [this] {
        if (m_running)
            cancel();
    });
}

DemoSetup::~DemoSetup()
{
    if (m_cancel)
        m_cancel->store(true);
    m_pool.waitForDone();
}

QString DemoSetup::defaultLocation()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + u"/demo.structscope"_s;
}

QString DemoSetup::activityLabel()
{
    return tr("Creating the demo workspace (simulated models)");
}

bool DemoSetup::isFirstStart() const
{
    return m_settings->recentWorkspaces().isEmpty() && m_settings->lastWorkspace().isEmpty();
}

bool DemoSetup::startIfFirstStart()
{
    return isFirstStart() && start();
}

bool DemoSetup::start(const QString& location)
{
    if (m_running)
        return false;
    const auto refuse = [this](const QString& message) {
        Q_EMIT finished(false, message);
        return false;
    };
    const QFileInfo info(location);
    if (!QDir().mkpath(info.absolutePath()))
        return refuse(tr("Cannot create the folder %1 for the demo workspace.").arg(info.absolutePath()));
    // The demo starts from scratch: its store must not be open (the scoring service reads it) while it is
    // replaced. Jobs of the pages and the scoring service may still be reading the old file, or about to: nothing
    // opens it from now on, and its files are removed once the last connection to them is closed — SQLite opens a
    // store's -wal and -shm by name, so a connection left to the old file would take the new file's for its own.
    if (m_workspace->isOpen() && QFileInfo(m_workspace->location()).absoluteFilePath() == info.absoluteFilePath())
        m_workspace->close();
    m_running = true;
    m_cancel = std::make_shared<std::atomic_bool>(false);
    const quint64 generation = ++m_generation;
    m_activity->begin(activityLabel());
    m_blocked = std::make_unique<ResultStore::OpeningBlocked>(location, tr("the demo workspace is being created anew"));
    m_clock.start();
    replaceWhenUnused(location, generation, kUnusedWaitMs);
    return true;
}

void DemoSetup::replaceWhenUnused(const QString& location, quint64 generation, qint64 deadline)
{
    if (generation != m_generation)
        return; // cancelled meanwhile
    if (const int connections = ResultStore::openConnections(location); connections > 0) {
        if (m_clock.elapsed() < deadline) {
            QTimer::singleShot(kUnusedPollMs, this,
                [this, location, generation, deadline] { replaceWhenUnused(location, generation, deadline); });
            return;
        }
        m_blocked.reset();
        complete(location, false, false,
            tr("%1 is still read by %n connection(s) of StructScope after %2 s; nothing was replaced.", nullptr,
                connections)
                .arg(location)
                .arg(deadline / 1000),
            0);
        return;
    }
    for (const QString& suffix : { u""_s, u"-wal"_s, u"-shm"_s, u"-journal"_s }) {
        QFile file(location + suffix);
        if (file.exists() && !file.remove()) {
            m_blocked.reset();
            complete(location, false, false,
                tr("Cannot replace the demo workspace %1: %2").arg(file.fileName(), file.errorString()), 0);
            return;
        }
    }
    m_blocked.reset();
    runWorker(location, generation);
}

void DemoSetup::runWorker(const QString& location, quint64 generation)
{
    const auto cancelFlag = m_cancel;
    QFuture<DemoOutcome> future = QtConcurrent::run(&m_pool, [location, cancelFlag](QPromise<DemoOutcome>& promise) {
        const DemoProgress report = [&promise, &cancelFlag](qint64 done, qint64 total) {
            const qint64 divisor = total / std::numeric_limits<int>::max() + 1;
            promise.setProgressRange(0, int(total / divisor));
            promise.setProgressValue(int(done / divisor));
            return !cancelFlag->load();
        };
        promise.addResult(runDemo(location, defaultDemoPlan(), report));
    });
    auto* watcher = new QFutureWatcher<DemoOutcome>(this);
    connect(watcher, &QFutureWatcherBase::progressValueChanged, this, [this, watcher, generation](int value) {
        if (generation != m_generation)
            return;
        // The indicator is shared: a scoring pass of the workspace closed at the start may end it late.
        if (!m_activity->isActive())
            m_activity->begin(activityLabel());
        m_activity->setProgress(value, watcher->progressMaximum());
        Q_EMIT progress(value, watcher->progressMaximum());
    });
    watcher->setFuture(future);
    future.then(this, [this, watcher, generation, location](const DemoOutcome& outcome) {
        watcher->deleteLater();
        if (generation != m_generation)
            return;
        complete(location, outcome.ok(), outcome.cancelled, outcome.error, outcome.elapsedMs);
    });
}

void DemoSetup::cancel()
{
    if (!m_running)
        return;
    m_cancel->store(true);
    ++m_generation; // the outcome that still arrives is dropped
    m_blocked.reset();
    complete({}, false, true, {}, 0);
}

void DemoSetup::complete(const QString& location, bool ok, bool cancelled, const QString& error, qint64 elapsedMs)
{
    m_running = false;
    m_activity->end();
    if (cancelled) {
        Q_EMIT finished(false, tr("The demo workspace was not created: cancelled."));
        return;
    }
    QString problem = error;
    if (ok && !m_workspace->open(location, false, &problem))
        ok = false;
    if (!ok) {
        Q_EMIT finished(false, tr("The demo workspace could not be created: %1").arg(problem));
        return;
    }
    // Opening announces the new data to every page (Workspace::open drops the old scores).
    m_settings->addRecentWorkspace(location);
    m_settings->setLastWorkspace(location);
    Q_EMIT finished(true,
        tr("Demo workspace ready in %1 s: built-in suites answered by simulated models (Help ▸ About the Data "
           "says what they are).")
            .arg(QLocale().toString(double(elapsedMs) / 1000.0, 'f', 1)));
}

} // namespace structscope
