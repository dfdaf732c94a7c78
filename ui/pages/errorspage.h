#pragma once

#include "models/errorsets.h"
#include "pages/recordspage.h"

#include <QList>

class QComboBox;
class QLabel;
class QToolButton;

namespace structscope {

class ErrorSetsChart;
class GoldToggle;

/// Which errors go together: per model (or model × strategy) a Venn diagram of the responses with
/// MK, MV and WV errors (or any labels picked; more than three become UpSet plots), with every region's
/// count written in. Clicking a region lists those responses on the Cases page.
class ErrorsPage : public RecordsPage
{
    Q_OBJECT
public:
    explicit ErrorsPage(Workspace* workspace, QWidget* parent = nullptr);

    QString title() const override { return tr("Errors"); }
    QString pageId() const override { return QStringLiteral("errors"); }
    QList<NamedChart> charts() override;

    ErrorSetsChart* chart() const { return m_chart; }
    /// The picked labels, in menu order.
    std::vector<ErrorLabel> labels() const;
    void setLabels(const std::vector<ErrorLabel>& labels);
    void setRowsByStrategy(bool byStrategy);

protected:
    void reload() override;
    void recordsReady(const ScoredSetPtr& set, const QString& error) override;

private:
    void rebuild();

    ErrorSetsChart* m_chart;
    GoldToggle* m_gold;
    QComboBox* m_rows;
    QList<QToolButton*> m_labelButtons;
    QLabel* m_status;
    QString m_error;
};

} // namespace structscope
