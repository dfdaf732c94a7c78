// SPDX-License-Identifier: Apache-2.0
// Child process for tst_store's crash test: appends responses to a run in fixed-size batches and prints
// "committed N" after every commit, until it has written `limit` responses or is killed.
//
//   storewriter STORE RUN_ID BATCH_SIZE LIMIT
//
// Response i (counting from 0 over the run) answers case i % cases at repeat i / cases, with raw text
// "response #i", so the test can check that every committed response is present, once and whole.
#include "store/responsewriter.h"
#include "store/resultstore.h"

#include <QCoreApplication>
#include <QElapsedTimer>

#include <cstdio>

using namespace Qt::StringLiterals;
using namespace structscope;

namespace {

int fail(const QString& message)
{
    std::fprintf(stderr, "storewriter: %s\n", qPrintable(message));
    return 2;
}

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    if (args.size() != 5)
        return fail(u"usage: storewriter STORE RUN_ID BATCH_SIZE LIMIT"_s);
    const qint64 runId = args.at(2).toLongLong();
    const int batchSize = args.at(3).toInt();
    const qint64 limit = args.at(4).toLongLong();
    if (runId <= 0 || batchSize <= 0 || limit <= 0)
        return fail(u"RUN_ID, BATCH_SIZE and LIMIT must be positive numbers"_s);

    QString error;
    auto store = ResultStore::open(args.at(1), &error);
    if (!store)
        return fail(error);
    auto run = store->run(runId);
    if (!run)
        return fail(run.errorMessage());
    auto cases = store->cases(run->suiteRow);
    if (!cases || cases->isEmpty())
        return fail(u"the run's suite has no cases"_s);
    auto stored = store->responseCount(runId);
    if (!stored)
        return fail(stored.errorMessage());
    const qint64 start = stored.value();
    const qint64 caseCount = cases->size();

    // Declared before the writer: its destructor's last flush may fail and report here.
    QString flushError;
    // No delay trigger: batches are exactly batchSize long, so the test can tell a partial batch.
    ResponseWriter writer(*store, batchSize, std::chrono::hours(1));
    QObject::connect(&writer, &ResponseWriter::flushed, [start](qsizetype, qint64 total) {
        std::printf("committed %lld\n", static_cast<long long>(start + total));
        std::fflush(stdout);
    });

    QObject::connect(
        &writer, &ResponseWriter::flushFailed, [&flushError](const QString& message) { flushError = message; });

    QElapsedTimer clock;
    clock.start();
    for (qint64 i = start; i < limit && clock.elapsed() < 60000; ++i) {
        ResponseRow r;
        r.runId = runId;
        r.caseRow = cases->at(i % caseCount).row;
        r.repeat = int(i / caseCount);
        r.requestHash = u"request-%1"_s.arg(i);
        r.rawText = u"response #%1"_s.arg(i);
        r.httpStatus = 200;
        r.latencyMs = double(i % 1000);
        r.tokensIn = i;
        r.tokensOut = 2 * i;
        if (!writer.append(r))
            return fail(u"cannot store a batch: "_s + flushError);
    }
    if (auto r = writer.flush(); !r)
        return fail(r.errorMessage());
    return 0;
}
