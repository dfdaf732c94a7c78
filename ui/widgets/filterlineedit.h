// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QLineEdit>
#include <QTimer>

namespace structscope {

/// A search field that reports its text once typing pauses, so a large table is not refiltered
/// on every keystroke.
class FilterLineEdit : public QLineEdit
{
    Q_OBJECT
public:
    explicit FilterLineEdit(QWidget* parent = nullptr);

    static constexpr int kDebounceMs = 300;

Q_SIGNALS:
    /// The text, kDebounceMs after the last edit (at once when cleared).
    void filterChanged(const QString& text);

private:
    QTimer m_debounce;
};

} // namespace structscope
