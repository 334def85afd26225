from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("leagues", "0003_notice_invite_and_turn"),
    ]

    operations = [
        migrations.AddField(
            model_name="league",
            name="allow_bots",
            field=models.BooleanField(
                default=False,
                help_text="Bot accounts may play this league's fixtures.",
                verbose_name="allow bots",
            ),
        ),
    ]
