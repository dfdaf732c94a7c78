// SPDX-License-Identifier: Apache-2.0
#include "workspace/workspace.h"

#include "store/resultstore.h"

#include <QFutureWatcher>
#include <QPromise>
#include <QtConcurrent/QtConcurrentRun>

#include <limits>

namespace structscope {

Workspace::Workspace(QObject* parent)
    : QObject(parent)
{
    m_importPool.setMaxThreadCount(1);
}

Workspace::~Workspace()
{
    cancelImport();
    m_importPool.waitForDone();
}

bool Workspace::open(const QString& location, bool create, QString* error)
{
    ResultStore::OpenOptions options;
    options.createIfMissing = create;
    // A whole-file check would block the window on a large store; the scoring pass reads it anyway.
    options.integrityCheck = false;
    StoreError storeError;
    auto store = ResultStore::open(location, options, &storeError);
    if (!store) {
        if (error)
            *error = storeError.message;
        return false;
    }
    cancelImport();
    m_location = location;
    m_displayName = store->displayName();
    store.reset();
    m_scoring.setLocation(location);
    ++m_contentGeneration;
    m_goldOnlyChangedCases.reset();
    // Stale first, then shown: a page that becomes visible with the workspace loads once.
    Q_EMIT dataChanged();
    Q_EMIT opened(location);
    return true;
}

void Workspace::close()
{
    if (!isOpen())
        return;
    cancelImport();
    m_location.clear();
    m_displayName.clear();
    m_scoring.setLocation({});
    ++m_contentGeneration;
    m_goldOnlyChangedCases.reset();
    Q_EMIT dataChanged();
    Q_EMIT closed();
}

bool Workspace::startImport(const ImportRequest& request)
{
    if (!isOpen() || m_importing || request.isEmpty())
        return false;
    m_importing = true;
    m_importCancel = std::make_shared<std::atomic_bool>(false);
    const quint64 generation = ++m_importGeneration;
    const QString location = m_location;
    const auto cancel = m_importCancel;

    QFuture<ImportOutcome> future
        = QtConcurrent::run(&m_importPool, [location, request, cancel](QPromise<ImportOutcome>& promise) {
              ImportProgress progress = [&promise, &cancel](qint64 done, qint64 total) {
                  const qint64 divisor = total / std::numeric_limits<int>::max() + 1;
                  promise.setProgressRange(0, int(total / divisor));
                  promise.setProgressValue(int(done / divisor));
                  return !cancel->load();
              };
              promise.addResult(importIntoStore(location, request, progress));
          });
    auto* watcher = new QFutureWatcher<ImportOutcome>(this);
    connect(watcher, &QFutureWatcherBase::progressValueChanged, this,
        [this, watcher](int value) { Q_EMIT importProgress(value, watcher->progressMaximum()); });
    watcher->setFuture(future);
    future.then(this, [this, watcher, generation](const ImportOutcome& outcome) {
        watcher->deleteLater();
        if (generation != m_importGeneration)
            return; // the workspace was closed or replaced meanwhile
        m_importing = false;
        Q_EMIT importFinished(outcome);
        if (outcome.changedStore())
            notifyDataChanged();
    });
    return true;
}

void Workspace::cancelImport()
{
    if (m_importCancel)
        m_importCancel->store(true);
    if (m_importing) {
        ++m_importGeneration;
        m_importing = false;
    }
}

void Workspace::notifyDataChanged()
{
    m_scoring.invalidate();
    ++m_contentGeneration;
    m_goldOnlyChangedCases.reset();
    Q_EMIT dataChanged();
}

void Workspace::notifyGoldChanged(const QSet<qint64>& caseRows)
{
    m_scoring.invalidateCases(caseRows);
    m_goldOnlyChangedCases = caseRows;
    Q_EMIT dataChanged();
}

} // namespace structscope
