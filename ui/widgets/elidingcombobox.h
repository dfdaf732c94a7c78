// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QComboBox>

namespace structscope {

/// A combo box for long names (models such as "Qwen/Qwen3-235B-A22B-Instruct-2507"): it is as wide as
/// `minimumContentsLength` characters whatever its items, shows the current name elided in the middle
/// (so "Qwen3-30B-…-2507" and "Qwen3-235B-…-2507" stay apart), elides the popup's items in the middle too,
/// and gives every item and the current choice its whole name as tooltip.
class ElidingComboBox : public QComboBox
{
    Q_OBJECT
public:
    explicit ElidingComboBox(QWidget* parent = nullptr, int minimumContentsLength = 26);

    /// The popup is at most this wide (the items elide within it).
    static constexpr int kMaxPopupWidth = 560;
    /// The current text as painted in a field `width` pixels wide.
    QString shownText(int width) const;

    void showPopup() override;

protected:
    void paintEvent(QPaintEvent* event) override;
};

} // namespace structscope
