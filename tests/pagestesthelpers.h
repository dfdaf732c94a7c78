// SPDX-License-Identifier: Apache-2.0
#pragma once

// Waiting and naming helpers shared by tst_pages and tst_goldediting (kept out of the test sources so
// moc never reads them).

#include "analysis/groupkey.h"
#include "pages/recordspage.h"
#include "widgets/diffview.h"

#include <QCoreApplication>
#include <QDir>
#include <QSignalSpy>
#include <QTest>

#include <initializer_list>

namespace pagestest {

constexpr int kTimeoutMs = 60000;

/// The folder screenshots are saved to: next to the test executable.
inline QString screenshotDir()
{
    const QString dir = QCoreApplication::applicationDirPath() + QStringLiteral("/screenshots");
    QDir().mkpath(dir);
    return dir;
}

inline structscope::GroupKey key(std::initializer_list<std::pair<std::string, std::string>> parts)
{
    return structscope::GroupKey { parts };
}

/// Waits until `spy` has recorded `count` signals. Unlike QSignalSpy::wait(), this also counts a
/// signal emitted before the wait began: a continuation attached with QFuture::then(context, …) to a
/// job that has already finished runs at once, inside the call that started the job.
inline bool waitForSignals(QSignalSpy& spy, int count = 1)
{
    return QTest::qWaitFor([&spy, count] { return spy.count() >= count; }, kTimeoutMs);
}

/// Waits until a page shows a scored set.
inline bool waitRecords(structscope::RecordsPage* page)
{
    return QTest::qWaitFor([page] { return !page->isBusy() && page->scoredSet(); }, kTimeoutMs);
}

/// Waits until the diff view shows a loaded response.
inline bool waitDetail(structscope::DiffView* view)
{
    return QTest::qWaitFor([view] { return !view->isLoading() && view->detail(); }, kTimeoutMs);
}

} // namespace pagestest
