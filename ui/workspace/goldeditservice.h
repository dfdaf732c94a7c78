// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "audit/goldeditor.h"
#include "audit/triage.h"

#include <QObject>
#include <QThreadPool>

#include <functional>
#include <vector>

namespace structscope {

class ResultStore;
class Workspace;

/// Gold edits, undo and triage of the open workspace, for every page. Each call runs off the GUI
/// thread with its own store connection (PostgreSQL round trips must not freeze the window) and
/// answers with a signal. A stored revision re-scores the whole workspace through
/// Workspace::notifyDataChanged(). The undo stack holds this session's revisions, newest last.
class GoldEditService : public QObject
{
    Q_OBJECT
public:
    enum class Action { Edit, Undo };

    explicit GoldEditService(Workspace* workspace, QObject* parent = nullptr);
    ~GoldEditService() override;

    /// The workspace's service (created on first use, owned by the workspace).
    static GoldEditService* of(Workspace* workspace);

    /// Who signs edits and triage: QSettings "audit/author", else $USER / $USERNAME, else "annotator".
    static QString defaultAuthor();
    QString author() const { return m_author; }
    /// Also remembered in QSettings for the next session.
    void setAuthor(const QString& author);

    /// Replaces (or removes) one place of a case's gold; the author is filled in when empty.
    void submitLeaf(LeafEdit edit);
    /// Replaces a case's whole gold.
    void submitGold(GoldEdit edit);
    /// Undoes the newest revision this session stored (if it is still the case's latest).
    bool undo();
    bool canUndo() const { return !m_undo.empty(); }
    /// Records a triage decision.
    void triage(TriageRequest request);
    bool isBusy() const { return m_running > 0; }

    struct Revision
    {
        qint64 caseRow = 0;
        int revision = 0;
    };
    const std::vector<Revision>& undoStack() const { return m_undo; }

Q_SIGNALS:
    /// An edit or undo finished, stored or not (see GoldEditOutcome::status).
    void editFinished(structscope::GoldEditService::Action action, const structscope::GoldEditOutcome& outcome);
    /// A triage decision was stored (`error` empty) or refused.
    void triageFinished(
        const structscope::TriageRequest& request, const structscope::TriageMark& mark, const QString& error);
    void undoAvailableChanged(bool available);
    void busyChanged(bool busy);

private:
    void run(Action action, std::function<GoldEditOutcome(ResultStore&)> job);
    void started();
    void stopped();

    Workspace* m_workspace;
    QString m_author;
    std::vector<Revision> m_undo;
    int m_running = 0;
    QThreadPool m_pool; ///< one write at a time, in order
};

} // namespace structscope

Q_DECLARE_METATYPE(structscope::GoldEditService::Action)
Q_DECLARE_METATYPE(structscope::TriageRequest)
