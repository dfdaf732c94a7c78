// SPDX-License-Identifier: Apache-2.0
#include "widgets/filterlineedit.h"

namespace structscope {

FilterLineEdit::FilterLineEdit(QWidget* parent)
    : QLineEdit(parent)
{
    setClearButtonEnabled(true);
    setPlaceholderText(tr("Filter…"));
    m_debounce.setSingleShot(true);
    m_debounce.setInterval(kDebounceMs);
    connect(&m_debounce, &QTimer::timeout, this, [this] { Q_EMIT filterChanged(text()); });
    connect(this, &QLineEdit::textChanged, this, [this](const QString& text) {
        if (text.isEmpty()) {
            m_debounce.stop();
            Q_EMIT filterChanged(text);
        } else {
            m_debounce.start();
        }
    });
}

} // namespace structscope
