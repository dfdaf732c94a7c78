// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "audit/goldeditor.h"

#include <nlohmann/json.hpp>

#include <QDialog>

#include <optional>

class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;

namespace structscope {

/// Asks why the gold changes; nullopt when cancelled. The reason is required (OK stays disabled
/// while it is empty) because every revision is on record with it.
std::optional<QString> askEditReason(QWidget* parent, const QString& summary);

/// Tells why an edit was not stored (Invalid: the schema errors with their pointers; Failed: the
/// store's message). Not modal: the diff stays readable beside it.
void showEditRefused(QWidget* parent, const GoldEditOutcome& outcome);

/// Someone else stored a revision since this editor read the gold: both versions side by side, with
/// who wrote theirs, when and why. Nothing was overwritten.
class GoldConflictDialog : public QDialog
{
    Q_OBJECT
public:
    explicit GoldConflictDialog(const GoldEditOutcome& outcome, QWidget* parent = nullptr);

    QString theirsText() const;
    QString mineText() const;

private:
    QPlainTextEdit* m_theirs;
    QPlainTextEdit* m_mine;
};

/// Edits a case's whole gold as JSON, with the reason: OK only when the text parses and a reason
/// is given. The schema check follows when the edit is submitted.
class GoldObjectDialog : public QDialog
{
    Q_OBJECT
public:
    GoldObjectDialog(const QString& caseLabel, const nlohmann::json& gold, QWidget* parent = nullptr);

    nlohmann::json gold() const { return m_parsed; }
    QString reason() const;
    /// Replaces the text (tests, and "reset").
    void setText(const QString& text);

private:
    void check();

    QPlainTextEdit* m_text;
    QLineEdit* m_reason;
    QLabel* m_status;
    QDialogButtonBox* m_buttons;
    nlohmann::json m_parsed;
};

} // namespace structscope
