// SPDX-License-Identifier: Apache-2.0
#include "workspace/goldeditservice.h"

#include "settings/settings.h"
#include "store/resultstore.h"
#include "workspace/workspace.h"

#include <QSettings>
#include <QtConcurrent/QtConcurrentRun>

using namespace Qt::StringLiterals;

namespace structscope {

namespace {

const QString kAuthorKey = u"audit/author"_s;

std::unique_ptr<ResultStore> openForWriting(const QString& location, QString& error)
{
    ResultStore::OpenOptions options;
    options.createIfMissing = false;
    options.integrityCheck = false;
    StoreError storeError;
    auto store = ResultStore::open(location, options, &storeError);
    if (!store)
        error = storeError.message;
    return store;
}

} // namespace

GoldEditService::GoldEditService(Workspace* workspace, QObject* parent)
    : QObject(parent)
    , m_workspace(workspace)
    , m_author(defaultAuthor())
{
    m_pool.setMaxThreadCount(1);
    // Another workspace, another history: what this session stored there cannot be undone here.
    connect(workspace, &Workspace::opened, this, [this] {
        m_undo.clear();
        Q_EMIT undoAvailableChanged(false);
    });
}

GoldEditService::~GoldEditService()
{
    m_pool.waitForDone();
}

GoldEditService* GoldEditService::of(Workspace* workspace)
{
    if (auto* service = workspace->findChild<GoldEditService*>(QString(), Qt::FindDirectChildrenOnly))
        return service;
    return new GoldEditService(workspace, workspace);
}

QString GoldEditService::defaultAuthor()
{
    const QString stored = QSettings().value(kAuthorKey).toString().trimmed();
    if (!stored.isEmpty())
        return stored;
    for (const char* variable : { "USER", "USERNAME" }) {
        const QString user = qEnvironmentVariable(variable).trimmed();
        if (!user.isEmpty())
            return user;
    }
    return u"annotator"_s;
}

void GoldEditService::setAuthor(const QString& author)
{
    const QString trimmed = author.trimmed();
    if (trimmed.isEmpty() || trimmed == m_author)
        return;
    m_author = trimmed;
    writeSetting(kAuthorKey, trimmed);
}

void GoldEditService::submitLeaf(LeafEdit edit)
{
    if (edit.author.isEmpty())
        edit.author = m_author;
    run(Action::Edit, [edit](ResultStore& store) { return applyLeafEdit(store, edit); });
}

void GoldEditService::submitGold(GoldEdit edit)
{
    if (edit.author.isEmpty())
        edit.author = m_author;
    run(Action::Edit, [edit](ResultStore& store) { return applyGoldEdit(store, edit); });
}

bool GoldEditService::undo()
{
    if (m_undo.empty())
        return false;
    // Taken off at once, so a second Ctrl+Z while this one runs undoes the revision before.
    const Revision top = m_undo.back();
    m_undo.pop_back();
    Q_EMIT undoAvailableChanged(canUndo());
    const QString author = m_author;
    run(Action::Undo, [top, author](ResultStore& store) {
        GoldEditOutcome outcome = undoGoldRevision(store, top.caseRow, author, top.revision);
        if (outcome.status == GoldEditOutcome::Status::Failed) {
            outcome.mine.caseRow = top.caseRow;
            outcome.mine.revision = top.revision;
        }
        return outcome;
    });
    return true;
}

void GoldEditService::triage(TriageRequest request)
{
    if (request.author.isEmpty())
        request.author = m_author;
    const QString location = m_workspace->location();
    started();
    QtConcurrent::run(&m_pool, [location, request]() -> std::pair<TriageMark, QString> {
        QString error;
        auto store = openForWriting(location, error);
        if (!store)
            return { TriageMark {}, error };
        const auto mark = setTriageState(*store, request);
        return mark ? std::pair(mark.value(), QString()) : std::pair(TriageMark {}, mark.errorMessage());
    }).then(this, [this, request](const std::pair<TriageMark, QString>& result) {
        stopped();
        Q_EMIT triageFinished(request, result.first, result.second);
    });
}

void GoldEditService::run(Action action, std::function<GoldEditOutcome(ResultStore&)> job)
{
    const QString location = m_workspace->location();
    started();
    QtConcurrent::run(&m_pool, [location, job = std::move(job)] {
        QString error;
        auto store = openForWriting(location, error);
        if (!store) {
            GoldEditOutcome outcome;
            outcome.status = GoldEditOutcome::Status::Failed;
            outcome.message = error;
            return outcome;
        }
        return job(*store);
    }).then(this, [this, action](const GoldEditOutcome& outcome) {
        stopped();
        if (action == Action::Edit && outcome.ok()) {
            m_undo.push_back({ outcome.added.caseRow, outcome.added.revision });
            Q_EMIT undoAvailableChanged(true);
        } else if (action == Action::Undo && outcome.status == GoldEditOutcome::Status::Failed
            && outcome.mine.caseRow > 0) {
            // The store could not be reached: the revision can still be undone later.
            m_undo.push_back({ outcome.mine.caseRow, outcome.mine.revision });
            Q_EMIT undoAvailableChanged(true);
        }
        Q_EMIT editFinished(action, outcome);
        if (outcome.ok())
            m_workspace->notifyGoldChanged({ outcome.added.caseRow });
    });
}

void GoldEditService::started()
{
    if (m_running++ == 0)
        Q_EMIT busyChanged(true);
}

void GoldEditService::stopped()
{
    if (--m_running == 0)
        Q_EMIT busyChanged(false);
}

} // namespace structscope
