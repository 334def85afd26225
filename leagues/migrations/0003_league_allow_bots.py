from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("leagues", "0002_partners_winner_season_options"),
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
