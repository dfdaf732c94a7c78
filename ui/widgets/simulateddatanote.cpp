// SPDX-License-Identifier: Apache-2.0
#include "widgets/simulateddatanote.h"

#include "widgets/simulateddatadialog.h"

using namespace Qt::StringLiterals;

namespace structscope {

SimulatedDataNote::SimulatedDataNote(QWidget* parent)
    : QLabel(parent)
{
    setObjectName(u"simulatedDataNote"_s);
    setTextFormat(Qt::RichText);
    setWordWrap(true);
    setTextInteractionFlags(Qt::LinksAccessibleByMouse | Qt::LinksAccessibleByKeyboard);
    setFrameShape(QFrame::StyledPanel);
    setMargin(4);
    setToolTip(tr("Simulated answers are gold answers with seeded faults: they show how the metrics react, "
                  "not how any real model performs"));
    connect(this, &QLabel::linkActivated, this, [this] { SimulatedDataDialog::showFor(this); });
    hide();
}

void SimulatedDataNote::setSimulatedModels(QStringList models)
{
    models.sort();
    m_models = models;
    setVisible(!m_models.isEmpty());
    if (m_models.isEmpty()) {
        clear();
        return;
    }
    setText(tr("<b>Includes simulated models</b> (%1): made from the gold with seeded faults, not results of "
               "real models. <a href=\"about-the-data\">About the data</a>")
                .arg(m_models.join(u", "_s).toHtmlEscaped()));
}

} // namespace structscope
